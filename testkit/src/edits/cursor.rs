//! The cursor calls of an edit program (`Items::cursor` and its moves,
//! reads and inserts), checked against the model's cursor slots.

use super::*;

pub(super) fn cursor_step(
    op: u8,
    inp: &mut Input<'_>,
    items: &mut ItemsMut<'_, '_>,
    m: &mut Model,
) -> (bool, Result<(), Error>) {
    // A slot holding a cursor, if any.
    let first = inp.below(4);
    let Some((s, mut slot)) = (0..4)
        .map(|k| (first + k) % 4)
        .find_map(|k| m.slots[k].map(|c| (k, c)))
    else {
        return (true, Ok(()));
    };
    let valid = slot.gen == m.gen;
    let p = slot.parent;
    let kids = m.kids(p).cloned().unwrap_or_default();
    let pos = if slot.prev == NONE {
        0
    } else {
        kids.iter()
            .position(|&k| k == slot.prev)
            .map_or(usize::MAX, |i| i + 1)
    };
    let next = kids.get(pos).copied();
    let is_map = m.ctype(p) == Some(ItemType::Map);
    let mut cur = slot.cur;
    let (want, r) = match op {
        10 => {
            let r = if inp.bool() {
                items.cursor_next(&mut cur)
            } else {
                items.cursor_peek(&cur)
            };
            if valid {
                assert_eq!(r, Ok(next), "cursor's next child");
                if let (Some(k), true) = (next, cur.prev() != slot.prev) {
                    slot_next(m, &mut slot, k);
                }
            }
            (valid, r.map(|_| ()))
        }
        11 => {
            let c = pick(inp, m, unlinked(m));
            let want = valid && m.can_link(p, c) && !is_map;
            let r = items.cursor_insert(&mut cur, c);
            if want {
                m.link(p, pos, c);
                slot.prev = c;
            }
            (want, r)
        }
        12 => {
            let want = m.parsing.is_none() && valid && !is_map && next.is_some();
            let r = items.cursor_remove(&mut cur);
            if want {
                assert_eq!(r, Ok(m.unlink(p, pos)), "cursor_remove");
            }
            (want, r.map(|_| ()))
        }
        13 => {
            let new = pick(inp, m, unlinked(m));
            let want = valid && m.can_link(p, new) && !is_map && next.is_some();
            let r = items.cursor_replace(&mut cur, new);
            if want {
                assert_eq!(r, Ok(m.unlink(p, pos)), "cursor_replace");
                m.link(p, pos, new);
            }
            (want, r.map(|_| ()))
        }
        _ => {
            let k = pick(inp, m, |i| m.free(i) && m.item_type(i) == ItemType::Str);
            let v = pick(inp, m, unlinked(m));
            let kb = items.bytes(k).unwrap_or_default();
            let key_ok = m.item_type(k) == ItemType::Str && !kb.is_empty();
            let above = slot.key == NONE
                || (m.item_type(slot.key) == ItemType::Str
                    && key_less(items.bytes(slot.key).unwrap_or_default(), kb));
            let want = valid
                && is_map
                && k != v
                && m.can_link(p, k)
                && m.can_link(p, v)
                && next.is_none()
                && !(slot.prev != NONE && slot.prev == slot.key)
                && key_ok
                && above;
            let r = items.map_append(&mut cur, k, v);
            if want {
                m.link(p, pos, v);
                m.link(p, pos, k);
                (slot.prev, slot.key) = (v, k);
            }
            (want, r)
        }
    };
    if want {
        slot.gen = m.gen;
        slot.cur = cur;
        assert_eq!(
            (cur.parent(), cur.prev()),
            (slot.parent, slot.prev),
            "cursor position"
        );
        m.slots[s] = Some(slot);
    } else if op != 10 {
        assert_eq!(cur, slot.cur, "a failed cursor call moved the cursor");
    }
    (want, r)
}

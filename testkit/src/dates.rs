//! Calendar dates as seconds since 1970-01-01 (UTC, proleptic Gregorian),
//! so that time tests state their instants as dates.

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// days_from_civil).
pub fn days(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Seconds since 1970-01-01T00:00:00 of a date and time of day.
pub fn unix(y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64) -> i64 {
    days(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(days(1970, 1, 1), 0);
        assert_eq!(days(1969, 12, 31), -1);
        assert_eq!(days(2000, 3, 1), 11_017);
        assert_eq!(unix(2016, 12, 31, 23, 59, 59), 1_483_228_799);
        assert_eq!(days(1, 1, 1), -719_162);
    }
}

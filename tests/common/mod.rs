//! Helpers shared by the integration tests. Each test crate compiles all of
//! them and uses only a part, hence the `dead_code` allowances inside.

pub mod native;
pub mod vectors;

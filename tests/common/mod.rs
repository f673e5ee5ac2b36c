//! Support for the C-facing tests: native-program helpers ([`native`]), and
//! the workspace's test kit (yac-testkit) under the name these tests have
//! always used.

#![allow(dead_code, unused_imports)]

pub mod native;

pub use yac_testkit::*;

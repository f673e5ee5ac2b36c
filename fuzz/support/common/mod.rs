//! The parts of tests/common the fuzz targets use: the reference model and
//! the walker built on it (the rest needs the test build's environment).

#![allow(dead_code)]

#[path = "../../../tests/common/reference.rs"]
pub mod reference;
#[path = "../../../tests/common/walk.rs"]
pub mod walk;

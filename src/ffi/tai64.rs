//! C API of the TAI64 helpers.

//! Encoding atoms into caller buffers.

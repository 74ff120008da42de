//! `pick`'s tests, one file per module.

mod map;

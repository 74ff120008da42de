//! The analysis floor's tests, one file per module, on the rows of [`super::fixture`].
//! Each test is pinned to one rule and says which; the verdicts' tests are in
//! `verdicts/tests.rs`.

mod bands;
mod diff;
mod noise;
mod rank;
mod workloads;

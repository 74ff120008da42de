//! `pqlab`: the command-line front of the lab.
fn main() {}

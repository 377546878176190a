//! Jaken's demo set, embedded in the binary (made for Tableside, not official cards): the text of
//! `cards/data/jaken-demo.toml`.

/// The name errors give the embedded text.
pub const FILE: &str = "jaken-demo.toml (embedded)";

/// The catalogue, as TOML.
pub const TOML: &str = include_str!("../../../data/jaken-demo.toml");

//! Yomi's demo set, embedded in the binary (made for Tableside, not official cards): the text of
//! `cards/data/yomi-demo.toml`.

/// The name errors give the embedded text.
pub const FILE: &str = "yomi-demo.toml (embedded)";

/// The catalogue, as TOML.
pub const TOML: &str = include_str!("../../../data/yomi-demo.toml");

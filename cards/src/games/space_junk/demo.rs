//! Space Junk's demo set, embedded in the binary (made for Tableside, not official cards): the text
//! of `cards/data/space-junk-demo.toml`.

/// The name errors give the embedded text.
pub const FILE: &str = "space-junk-demo.toml (embedded)";

/// The catalogue, as TOML.
pub const TOML: &str = include_str!("../../../data/space-junk-demo.toml");

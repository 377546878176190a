//! JUNK-KEN's demo set, embedded in the binary (made for Tableside, not official cards): the text
//! of `cards/data/junk-ken-demo.toml`.

/// The name errors give the embedded text.
pub const FILE: &str = "junk-ken-demo.toml (embedded)";

/// The catalogue, as TOML.
pub const TOML: &str = include_str!("../../../data/junk-ken-demo.toml");

//! Rockman EXE's demo set, embedded in the binary (made for Tableside, not official cards): the
//! text of `cards/data/rockman-exe-demo.toml`.

/// The name errors give the embedded text.
pub const FILE: &str = "rockman-exe-demo.toml (embedded)";

/// The catalogue, as TOML.
pub const TOML: &str = include_str!("../../../data/rockman-exe-demo.toml");

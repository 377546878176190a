//! End-to-end tests that cross Tableside's crates (`cards`, `tableside`, later `hardware` and
//! `firmware-bridge`); the tests themselves are in `tests/tests/`. This library holds what they
//! share: the documented demo match as the inputs a table would enter, and the checks of the
//! workspace's layout ([`layout`]).

pub mod layout;

use cards::catalogue::Catalogue;
use cards::game::MatchHeader;
use cards::script::{Script, Step};

/// The demo match script (docs/examples/jaken-demo.script).
pub const DEMO_SCRIPT: &str = include_str!("../../docs/examples/jaken-demo.script");

/// The demo match's header and its inputs in order (checks and expected refusals left out).
pub fn demo_match() -> Result<(MatchHeader, Vec<serde_json::Value>), String> {
    let script = Script::parse(DEMO_SCRIPT).map_err(|e| e.to_string())?;
    let catalogue = Catalogue::jaken_demo().map_err(|e| e.to_string())?;
    let header = script.header(&catalogue).map_err(|e| e.to_string())?;
    let inputs = script
        .steps
        .into_iter()
        .filter_map(|(_, step)| match step {
            Step::Input(v) => Some(v),
            _ => None,
        })
        .collect();
    Ok((header, inputs))
}

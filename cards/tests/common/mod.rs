//! Helpers shared by the test files (and the script fuzz target, by path).

use cards::core::GameId;

/// The documented demo script of a game (`docs/examples/*-demo.script`).
pub fn demo_script(game: GameId) -> &'static str {
    match game {
        GameId::Jaken => include_str!("../../../docs/examples/jaken-demo.script"),
        GameId::JunkKen => include_str!("../../../docs/examples/junk_ken-demo.script"),
        GameId::RockmanExe => include_str!("../../../docs/examples/rockman-demo.script"),
        GameId::SpaceJunk => include_str!("../../../docs/examples/space_junk-demo.script"),
        GameId::Yomi => include_str!("../../../docs/examples/yomi-demo.script"),
    }
}

/// The header lines (game, catalogue, players, rules) of a game's demo script.
pub fn demo_header(game: GameId) -> String {
    demo_script(game)
        .lines()
        .filter(|l| {
            ["game ", "catalogue ", "player ", "rule "]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

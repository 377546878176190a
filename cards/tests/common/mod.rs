//! Helpers shared by the test files (and the script fuzz target, by path).

// Each test binary uses some of these.
#![allow(dead_code)]

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

/// Then: `mv` is refused by `rule`, whose sentences name the cause (`en` in English, `ja` in
/// Japanese) and whose reference is the rulebook's, not a file; with an override (`reason`) it is
/// applied, the entry records the broken rules, and the log replays to the live state.
pub fn refused_then_overridden<G: cards::game::Game>(
    m: &mut cards::matches::Match<G>,
    catalogue: &cards::catalogue::Catalogue,
    mv: G::Move,
    reason: &str,
    rule: &str,
    en: &[&str],
    ja: &[&str],
) {
    use cards::matches::{EntryEffect, Input, Match, Rejection};
    let violations = match m.prepare(&Input::Move {
        mv: mv.clone(),
        override_reason: None,
    }) {
        Err(Rejection::Refused { violations }) => violations,
        Err(other) => panic!("{mv:?}: expected a refusal by {rule}, got {other:?}"),
        Ok(_) => panic!("{mv:?}: expected a refusal by {rule}, it was accepted"),
    };
    let v = violations
        .iter()
        .find(|v| v.rule == rule)
        .unwrap_or_else(|| panic!("{mv:?}: refused by {violations:?}, not {rule}"));
    for needle in en {
        assert!(
            v.sentence.contains(needle),
            "{rule}: {:?} lacks {needle:?}",
            v.sentence
        );
    }
    assert!(!v.sentence_ja.is_empty(), "{rule}: no Japanese sentence");
    for needle in ja {
        assert!(
            v.sentence_ja.contains(needle),
            "{rule}: {:?} lacks {needle:?}",
            v.sentence_ja
        );
    }
    assert!(
        !v.reference.contains(".md") && !v.reference.is_empty(),
        "{v:?}"
    );
    let before = m.entries().len();
    let p = m
        .prepare(&Input::Move {
            mv,
            override_reason: Some(reason.into()),
        })
        .unwrap_or_else(|e| panic!("{rule}: the override was refused: {e:?}"));
    assert!(m.commit(p));
    assert_eq!(
        m.entries()[before].effect,
        EntryEffect::Overridden(violations)
    );
    let inputs: Vec<_> = m.entries().iter().map(|e| e.input.clone()).collect();
    let replayed = Match::<G>::replay(m.header().clone(), catalogue, inputs)
        .unwrap_or_else(|e| panic!("{rule}: the log does not replay: {e:?}"));
    assert_eq!(
        serde_json::to_value(replayed.state()).unwrap(),
        serde_json::to_value(m.state()).unwrap()
    );
}

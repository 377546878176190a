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

/// The violation of `rule` among `violations`, whose English sentence holds every `en` and whose
/// Japanese one (present) every `ja`: the sentences name the actual cause.
#[track_caller]
pub fn names_the_cause<'a>(
    violations: &'a [cards::core::Violation],
    rule: &str,
    en: &[&str],
    ja: &[&str],
) -> &'a cards::core::Violation {
    let v = violations
        .iter()
        .find(|v| v.rule == rule)
        .unwrap_or_else(|| panic!("refused by {violations:?}, not {rule}"));
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
    v
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
    let v = names_the_cause(&violations, rule, en, ja);
    let names = quoted_names(m.header(), catalogue);
    for w in &violations {
        assert_japanese(&w.sentence_ja, &names);
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

/// The catalogue's own texts (card ids, names, move names, printed text) and the players' names:
/// what a Japanese sentence may quote as it is, in whatever script it is written.
pub fn quoted_names(
    header: &cards::game::MatchHeader,
    catalogue: &cards::catalogue::Catalogue,
) -> Vec<String> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    match x {
                        serde_json::Value::String(s)
                            if [
                                "id",
                                "name_ja",
                                "name_en",
                                "name",
                                "text",
                                "flavor",
                                "tribe",
                                "target_tribe",
                            ]
                            .contains(&k.as_str()) =>
                        {
                            out.push(s.clone());
                        }
                        _ => walk(x, out),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out: Vec<String> = header.players.iter().map(|p| p.name.clone()).collect();
    for c in &catalogue.cards {
        walk(&serde_json::to_value(c).unwrap(), &mut out);
    }
    for d in &catalogue.decks {
        out.push(d.id.clone());
    }
    // The rulebook's own Latin terms of the game, which its Japanese text uses as they are.
    out.extend(
        match header.game {
            // The Jaken seed: 「BG」「SB」「OB」「NM」「EM」.
            GameId::Jaken => ["BG", "SB", "OB", "NM", "EM"].as_slice(),
            // The JUNK-KEN seed: 「ATK」「DRAW」「HP」, 「EXカード」.
            GameId::JunkKen => ["ATK", "DRAW", "HP", "EX"].as_slice(),
            _ => [].as_slice(),
        }
        .iter()
        .map(|s| (*s).to_owned()),
    );
    out.retain(|s| !s.is_empty());
    // Longest first, so that a name is not cut by a shorter one inside it.
    out.sort_by_key(|s| std::cmp::Reverse(s.len()));
    out.dedup();
    out
}

/// The rulebooks' own Latin letters in their Japanese text: Yomi's ability timings
/// (`[Combat Reveal]`, seed 2-3) and Rockman's `Lv１` (seed: 「Lv１-チップの使用制限」).
const SEED_TERMS: &[&str] = &[
    "[Draw Phase]",
    "[Combat Reveal]",
    "[During Combat]",
    "[End of Combat]",
    "[Full Combo]",
    "[End of Turn]",
    "Lv",
];

/// Then: a violation's Japanese sentence (and a Japanese reason) is written in Japanese: once
/// the players' names, the catalogue's texts (`names`, from [`quoted_names`]) and the
/// rulebook's own Latin terms are taken out, no ASCII letter is left, except the seed's A (Yomi's
/// 「A札」「Aを探し」, a lone capital A).
pub fn assert_japanese(sentence_ja: &str, names: &[String]) {
    let mut rest = sentence_ja.to_owned();
    for n in names
        .iter()
        .map(String::as_str)
        .chain(SEED_TERMS.iter().copied())
    {
        rest = rest.replace(n, " ");
    }
    let chars: Vec<char> = rest.chars().collect();
    let english: String = chars
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            let letter = |j: Option<&char>| j.is_some_and(|c| c.is_ascii_alphabetic());
            let lone_a = **c == 'A'
                && !letter(i.checked_sub(1).and_then(|j| chars.get(j)))
                && !letter(chars.get(i + 1));
            c.is_ascii_alphabetic() && !lone_a
        })
        .map(|(_, c)| *c)
        .collect();
    assert!(
        english.is_empty(),
        "English letters {english:?} in the Japanese sentence {sentence_ja:?}"
    );
}

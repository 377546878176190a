//! Strict input, per game: a move, an input or a house rule with a misspelt or unknown field is
//! refused with the field named and the known fields listed — never applied with the field
//! ignored (a typo must not change a result).

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::matches::Rejection;
use cards::script::{Script, ScriptError, ScriptErrorKind, run_step};

mod common;
use common::demo_header;

/// Runs the demo header plus `lines`; the first error, if any.
fn run(game: GameId, lines: &str) -> Result<(), ScriptError> {
    let text = format!("{}{lines}", demo_header(game));
    let script = Script::parse(&text)?;
    let cat = Catalogue::builtin(game).unwrap();
    let header = script.header(&cat)?;
    let mut m = cards::matches::new_match(header, &cat).map_err(|e| ScriptError {
        line: 1,
        kind: ScriptErrorKind::Syntax(e.to_string()),
    })?;
    for (line, step) in &script.steps {
        run_step(m.as_mut(), *line, step, &mut |_| Ok(()))?;
    }
    Ok(())
}

/// A line with a misspelt field is refused as malformed, naming the field and the known ones;
/// the same line spelt right is not refused as malformed.
fn refuses_misspelt(game: GameId, misspelt: &str, wrong: &str, known: &[&str], right: &str) {
    let e = run(game, &format!("{misspelt}\n")).unwrap_err();
    let text = e.to_string();
    assert!(
        matches!(e.kind, ScriptErrorKind::Rejected(Rejection::Malformed(_))),
        "{game}: `{misspelt}` must be refused as malformed input, got: {text}"
    );
    assert!(
        text.contains(&format!("`{wrong}`")),
        "{game}: the error must name `{wrong}`: {text}"
    );
    for k in known {
        assert!(
            text.contains(&format!("`{k}`")),
            "{game}: the error must list the known field `{k}`: {text}"
        );
    }
    if let Err(ScriptError {
        kind: ScriptErrorKind::Rejected(Rejection::Malformed(m)),
        ..
    }) = run(game, &format!("{right}\n"))
    {
        panic!("{game}: `{right}` is well formed, got: {m}");
    }
}

#[test]
fn yomi_reveal_with_edn_is_refused_not_read_as_the_top_end() {
    refuses_misspelt(
        GameId::Yomi,
        "move reveal player=Aki card=YO-A01 edn=bottom",
        "edn",
        &["player", "card", "end"],
        "move reveal player=Aki card=YO-A01 end=bottom",
    );
}

#[test]
fn jaken_use_bg_with_atkk_is_refused_not_spent_for_nothing() {
    refuses_misspelt(
        GameId::Jaken,
        "move use-bg player=Aki uses=1 atkk=1",
        "atkk",
        &["uses", "atk", "def"],
        "move use-bg player=Aki uses=1 atk=1",
    );
}

#[test]
fn junk_ken_place_character_with_crad_is_refused() {
    refuses_misspelt(
        GameId::JunkKen,
        "move place-character player=Aki crad=JK-001",
        "crad",
        &["player", "card"],
        "move place-character player=Aki card=JK-001",
    );
}

#[test]
fn rockman_attack_with_bonnus_is_refused() {
    refuses_misspelt(
        GameId::RockmanExe,
        "move attack player=Aki from=1,1 bonnus=10",
        "bonnus",
        &["from", "target", "bonus"],
        "move attack player=Aki from=1,1 bonus=10",
    );
}

#[test]
fn space_junk_attack_with_rnage_is_refused() {
    refuses_misspelt(
        GameId::SpaceJunk,
        "move attack player=Aki target=Ben rnage=2",
        "rnage",
        &["player", "target", "range"],
        "move attack player=Aki target=Ben range=2",
    );
}

#[test]
fn a_move_without_fields_refuses_any_field() {
    // `proceed` has no fields: `proceed player=Aki` is not silently read as `proceed`.
    let e = run(GameId::Yomi, "move proceed player=Aki\n").unwrap_err();
    assert!(e.to_string().contains("`player`"), "{e}");
}

#[test]
fn a_misspelt_input_field_is_refused() {
    let cat = Catalogue::builtin(GameId::Yomi).unwrap();
    let script = Script::parse(&demo_header(GameId::Yomi)).unwrap();
    let m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    let input = serde_json::json!({
        "input": "move",
        "move": {"type": "face-down", "player": 0},
        "overide_reason": "house rule",
    });
    let e = m.prepare_json(&input).unwrap_err().to_string();
    assert!(e.contains("`overide_reason`"), "{e}");
    assert!(e.contains("`override_reason`"), "{e}");
    let adjust = serde_json::json!({
        "input": "adjust",
        "tracker": {"player": 0, "nmae": "hp"},
        "value": 3,
        "reason": "recount",
    });
    let e = m.prepare_json(&adjust).unwrap_err().to_string();
    assert!(e.contains("`nmae`") && e.contains("`name`"), "{e}");
}

#[test]
fn a_misspelt_house_rule_is_refused_with_its_name() {
    for game in GameId::ALL {
        let e = run(game, "rule no_such_rule=1\n").unwrap_err().to_string();
        assert!(e.contains("`no_such_rule`"), "{game}: {e}");
    }
}

// ------------------------------------------------------------------ hostile scripts (issue 21)

fn parse_err(text: &str) -> ScriptError {
    match Script::parse(text) {
        Ok(_) => panic!("the script must be refused"),
        Err(e) => e,
    }
}

#[test]
fn refused_with_no_input_after_it_is_a_clean_error() {
    let e = parse_err(
        "game jaken\nplayer A deck=lantern\nplayer B deck=gale\nrefused jaken.summon-cost\n",
    );
    assert_eq!(e.line, 4);
    assert!(
        e.to_string().contains("must be followed by an input"),
        "{e}"
    );
}

#[test]
fn a_line_of_twenty_thousand_nested_refused_is_a_clean_error() {
    // 20,000 deep is over the line limit; 500 deep (13 KB) is within it and is refused for
    // the nesting itself. Neither recurses.
    for depth in [20_000, 500] {
        let line = "refused jaken.summon-cost ".repeat(depth) + "move compare";
        let e = parse_err(&format!("game jaken\nplayer A deck=lantern\n{line}\n"));
        assert_eq!(e.line, 3);
        let text = e.to_string();
        assert!(
            text.contains("not another `refused`") || text.contains("at most"),
            "{text}"
        );
        assert!(text.len() < 200, "{text}");
    }
}

#[test]
fn an_overlong_line_is_refused_with_the_limit_and_without_echoing_it() {
    let line = format!("move compare note={}", "x".repeat(1 << 20));
    let e = parse_err(&format!("game jaken\nplayer A deck=lantern\n{line}\n"));
    let text = e.to_string();
    assert!(
        text.contains(&cards::script::MAX_LINE_BYTES.to_string()),
        "{text}"
    );
    assert!(
        text.len() < 200,
        "the error echoes the input: {} bytes",
        text.len()
    );
}

#[test]
fn errors_cap_what_they_echo() {
    let junk = "z".repeat(10_000);
    for text in [
        format!("game {junk}\n"),
        format!("game jaken\nplayer A deck=lantern\n{junk}\n"),
        format!("game jaken\nplayer A deck=lantern\nmove compare player={junk}\n"),
        format!("game jaken\nplayer A deck=lantern\nroll d{junk} 3\n"),
        format!("game jaken\nplayer A {junk}\n"),
    ] {
        let e = parse_err(&text).to_string();
        assert!(e.len() < 300, "{} bytes: {}", e.len(), &e[..300]);
    }
    // A JSON error quoting a huge value is capped too.
    let cat = Catalogue::builtin(GameId::Jaken).unwrap();
    let script = Script::parse(&demo_header(GameId::Jaken)).unwrap();
    let m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    let input = serde_json::json!({"input": "move", "move": {"type": "compare", junk.clone(): 1}});
    let e = m.prepare_json(&input).unwrap_err().to_string();
    assert!(e.len() < 500, "{} bytes", e.len());
}

#[test]
fn a_hundred_thousand_player_lines_stop_at_the_player_limit() {
    let mut text = String::from("game space-junk\n");
    for i in 0..100_000 {
        text.push_str(&format!("player P{i} deck=x\n"));
    }
    // Parsing stops at the limit instead of comparing 100,000 names with each other.
    let e = parse_err(&text);
    assert_eq!(e.line, cards::script::MAX_PLAYERS + 2, "{e}");
    assert!(e.to_string().contains("at most"), "{e}");
}

#[test]
fn a_script_with_a_utf8_bom_is_read() {
    let text = format!("\u{feff}{}", demo_header(GameId::Yomi));
    let s = Script::parse(&text).unwrap();
    assert_eq!(s.game, GameId::Yomi);
    assert_eq!(s.players.len(), 2);
}

#[test]
fn outcome_sentences_name_the_players() {
    let w = cards::core::Outcome::Win {
        winner: 1,
        reason: "Aki's HP is 0".into(),
    };
    let names = ["Aki".to_owned(), "Ben".to_owned()];
    assert_eq!(
        cards::matches::outcome_sentence_named(&w, &names),
        "Ben wins: Aki's HP is 0"
    );
}

// ------------------------------------------------------------------ numbers the rules compare

#[test]
fn the_numbers_the_rules_compare_can_be_read_by_expect() {
    // At the start of each demo match (every documented name exists; the values are the start's).
    let cases: [(GameId, &str); 5] = [
        (
            GameId::SpaceJunk,
            "expect attack-total 0\nexpect hits 0\nexpect ram-rammer-total 0\nexpect ram-target-total 0\nexpect damaged player=Aki 0\nexpect r-cards player=Aki 0\n",
        ),
        (
            GameId::RockmanExe,
            "expect phase 1\nexpect table-cards player=Aki 0\nexpect styles player=Ben 0\n",
        ),
        (
            GameId::Yomi,
            "expect aces-discard player=Aki 0\nexpect aces-pending player=Aki 0\nexpect combat-damage player=Ben 0\nexpect combo-damage player=Ben 0\n",
        ),
        (
            GameId::JunkKen,
            "expect dice-owed 0\nexpect graveyard player=Aki 0\nexpect graveyard-face-down player=Ben 0\n",
        ),
        (GameId::Jaken, "expect sb player=Aki 10\n"),
    ];
    for (game, lines) in cases {
        run(game, lines).unwrap_or_else(|e| panic!("{game}: {e}"));
    }
    // Boosted values follow the ship's; Aces in deck or hand are counted.
    let cat = Catalogue::builtin(GameId::SpaceJunk).unwrap();
    let script = Script::parse(&demo_header(GameId::SpaceJunk)).unwrap();
    let m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    let value = |name: &str| {
        m.trackers()
            .into_iter()
            .find(|t| t.id == cards::core::TrackerId::named(Some(0), name.to_owned()))
            .map(|t| t.value)
    };
    assert_eq!(value("boosted-attack"), value("attack"));
    assert_eq!(value("boosted-move"), value("move"));
    // A computed number is not adjusted by hand: the refusal says what to correct.
    let adjust = serde_json::json!({
        "input": "adjust", "tracker": {"name": "attack-total"}, "value": 0, "reason": "check",
    });
    let e = m.prepare_json(&adjust).unwrap_err().to_string();
    assert!(e.contains("computed"), "{e}");
    let cat = Catalogue::builtin(GameId::Yomi).unwrap();
    let script = Script::parse(&demo_header(GameId::Yomi)).unwrap();
    let m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    let aces = m
        .trackers()
        .into_iter()
        .find(|t| t.id == cards::core::TrackerId::named(Some(0), "aces-unseen".to_owned()))
        .map(|t| t.value);
    assert!(aces.is_some_and(|n| n > 0), "{aces:?}");
}

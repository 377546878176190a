//! Cards seen on the mat become moves: given a match in some phase, when a tagged card is seen
//! in a zone, then the one move it stands for is proposed (or none, with the reason).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::matches::{AnyMatch, new_match};
use cards::script::{Script, Step, run_step};
use cards::sightings::{Proposal, Sighting, propose, zone_moves};
use serde_json::Value;

fn start(text: &str) -> (Script, Box<dyn AnyMatch>) {
    let script = Script::parse(text).unwrap();
    let catalogue = Catalogue::builtin(script.game).unwrap();
    let m = new_match(script.header(&catalogue).unwrap(), &catalogue).unwrap();
    (script, m)
}

/// The zone a move puts its card into on the Jaken mat, if it is one the camera sees.
fn jaken_zone(input: &Value) -> Option<(&'static str, String, usize)> {
    let mv = input.get("move")?;
    let zone = match mv.get("type")?.as_str()? {
        "reveal" => "battle",
        "declare-bg" => "bg",
        _ => return None,
    };
    let card = mv.get("card")?.as_str()?.to_owned();
    let seat = usize::try_from(mv.get("player")?.as_u64()?).ok()?;
    Some((zone, card, seat))
}

#[test]
fn a_whole_jaken_match_with_reveals_and_bg_cards_read_off_the_mat_ends_as_entered_by_hand() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/examples/jaken-demo.script"
    ))
    .unwrap();
    // Given the demo match, entered by hand …
    let (script, mut by_hand) = start(&text);
    for (line, step) in &script.steps {
        run_step(by_hand.as_mut(), *line, step, &mut |_| Ok(())).unwrap();
    }
    // … and the same match where every card turned over or declared is seen by the camera.
    let (_, mut seen) = start(&text);
    let mut from_camera = 0;
    for (line, step) in &script.steps {
        let sighted = match step {
            Step::Input(v) if v.get("override_reason").is_none() => jaken_zone(v),
            _ => None,
        };
        let Some((zone, card, seat)) = sighted else {
            run_step(seen.as_mut(), *line, step, &mut |_| Ok(())).unwrap();
            continue;
        };
        let sighting = Sighting {
            card,
            seat: Some(seat),
            zone: zone.into(),
            owner: Some(seen.context().players[seat].clone()),
        };
        // When the card is seen, then exactly that move is proposed, and it applies.
        match propose(seen.as_ref(), &sighting) {
            Proposal::Apply(action) => {
                let Step::Input(v) = step else { unreachable!() };
                assert_eq!(&action.input, v, "line {line}");
                run_step(
                    seen.as_mut(),
                    *line,
                    &Step::Input(action.input),
                    &mut |_| Ok(()),
                )
                .unwrap();
                from_camera += 1;
            }
            other => panic!("line {line}: expected one move for {sighting:?}, got {other:?}"),
        }
    }
    // Then both matches end in the same state.
    assert!(
        from_camera >= 20,
        "only {from_camera} moves came from the camera"
    );
    assert_eq!(seen.state_json(), by_hand.state_json());
    assert_eq!(seen.outcome(), by_hand.outcome());
    assert!(seen.outcome().is_some());
}

const OPENING: &str = "game jaken\nplayer Aki deck=lantern\nplayer Ben deck=gale\n\
    move first-parent player=Aki\nmove pass-bg player=Aki\n\
    move face-down player=Aki\nmove face-down player=Ben\n";

fn opened() -> Box<dyn AnyMatch> {
    let (script, mut m) = start(OPENING);
    for (line, step) in &script.steps {
        run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap();
    }
    m
}

#[test]
fn a_card_of_one_player_seen_on_the_other_players_side_is_not_taken_as_a_move() {
    // Given both monsters face down, when Ben's registered copy shows up in Aki's battle zone …
    let m = opened();
    let p = propose(
        m.as_ref(),
        &Sighting {
            card: "JD01".into(),
            seat: Some(0),
            zone: "battle".into(),
            owner: Some("Ben".into()),
        },
    );
    // … then no move is made, and the players are told whose card lies where.
    match p {
        Proposal::NoMove(why) => {
            assert!(why.contains("Ben's card JD01 lies on Aki's side"), "{why}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_card_in_a_zone_that_is_not_a_move_or_out_of_phase_proposes_nothing() {
    let m = opened();
    // A card laid on the deck is never a move.
    let deck = Sighting {
        card: "JD01".into(),
        seat: Some(0),
        zone: "deck".into(),
        owner: None,
    };
    assert!(matches!(propose(m.as_ref(), &deck), Proposal::NoMove(_)));
    // A BG card after the BG steps are over: no move puts it there now.
    let bg = Sighting {
        card: "JD25".into(),
        seat: Some(0),
        zone: "bg".into(),
        owner: None,
    };
    match propose(m.as_ref(), &bg) {
        Proposal::NoMove(why) => assert!(why.contains("no move"), "{why}"),
        other => panic!("{other:?}"),
    }
    // A card Aki does not hold cannot be his reveal.
    let foreign = Sighting {
        card: "JD10".into(),
        seat: Some(0),
        zone: "battle".into(),
        owner: None,
    };
    assert!(matches!(propose(m.as_ref(), &foreign), Proposal::NoMove(_)));
}

#[test]
fn rockman_area_squares_on_the_mat_are_the_engines_lane_and_rank() {
    let square = |zone: &str, seat| {
        zone_moves(GameId::RockmanExe, zone, Some(seat))
            .map(|z| z.fixed[0].1.as_str().unwrap().to_owned())
    };
    // Seat 0 sits at the left edge: the top row is its left lane; column 3 is its front rank.
    assert_eq!(square("area-r1c3", 0).as_deref(), Some("0,0"));
    assert_eq!(square("area-r3c1", 0).as_deref(), Some("2,2"));
    // Seat 1 sits at the right edge: the bottom row is its left lane.
    assert_eq!(square("area-r3c3", 1).as_deref(), Some("0,0"));
    assert_eq!(square("area-r1c2", 1).as_deref(), Some("2,1"));
    // The middle lanes face each other (lane c faces the opponent's lane 2-c).
    assert_eq!(square("area-r2c3", 0).as_deref(), Some("1,0"));
    assert_eq!(square("area-r2c3", 1).as_deref(), Some("1,0"));
    assert_eq!(square("area-r4c1", 0), None);
    assert_eq!(zone_moves(GameId::RockmanExe, "chips", Some(0)), None);
}

#[test]
fn space_junk_slots_on_the_mat_are_the_engines_spaces() {
    let space = |zone: &str| zone_moves(GameId::SpaceJunk, zone, Some(0)).map(|z| z.fixed);
    assert_eq!(space("move-2").unwrap()[0].1, Value::from(2));
    assert_eq!(space("attack-1").unwrap()[0].1, Value::from(3));
    assert_eq!(space("search-2").unwrap()[0].1, Value::from(6));
    assert_eq!(space("fuselage").unwrap()[0].1, Value::from("fuselage"));
    assert!(space("cargo").unwrap().is_empty());
    assert_eq!(space("deck"), None);
}

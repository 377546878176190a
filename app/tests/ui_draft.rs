//! JUNK-KEN's draft through the window: the start screen's draft switch deals the piles, piles
//! are picked and decks built by taps, and after the battle "Next battle of the draft" starts
//! the next match with the winner's exchange.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::core::GameId;
use cards::games::junk_ken::{JunkKen, Step};
use std::path::Path;
use tableside::session::load_match;
use tableside::store::Store;

mod common;
use common::*;

fn open(db: &Path) -> H {
    open_window(db, [1280.0, 800.0], false)
}

fn junk_ken(h: &H) -> cards::games::junk_ken::State {
    let session = h.state().session().expect("a match is on the table");
    let game = session.game();
    assert_eq!(game.game(), GameId::JunkKen);
    game.as_any()
        .downcast_ref::<cards::matches::Match<JunkKen>>()
        .expect("a JUNK-KEN match")
        .state()
        .clone()
}

#[test]
fn a_draft_is_dealt_picked_and_built_in_the_window_and_goes_on_to_its_next_battle() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("tableside.sqlite3");
    let mut h = open(&db);

    // Given JUNK-KEN with the draft switched on: the players bring no decks.
    click(&mut h, "JUNK-KEN JUNK-拳");
    type_into(&mut h, "Player 1 name", "Aki");
    type_into(&mut h, "Player 2 name", "Ben");
    click(&mut h, SWITCH);
    assert!(
        sees_part(&h, "6 (144 cards, 20 piles)"),
        "the pool's size is shown"
    );
    click(&mut h, "Fewer copies");
    assert!(sees_part(&h, "5 (120 cards, 17 piles)"));
    click(&mut h, "More copies");
    click(&mut h, "Start");

    // Then the app has dealt 20 piles of 6 face down; either player may take the first.
    assert!(sees_part(
        &h,
        "The janken winner picks the first pile (20 piles)"
    ));
    let s = junk_ken(&h);
    assert_eq!(s.table.step, Step::Purchase);
    // The top of the screen says the draft is on, not a battle's turn.
    assert!(sees(&h, "Draft"), "the top bar names the draft");
    assert!(!sees(&h, "Turn 1"), "no turn before the battle");
    assert!(
        !sees(&h, "Edit Turn"),
        "no turn counter to correct before the battle"
    );
    assert!(
        !sees_part(&h, "Turn 1"),
        "no turn number anywhere before the battle"
    );
    let d = s.table.draft.as_ref().unwrap();
    assert_eq!(d.piles.len(), 20);
    assert!(d.piles.iter().all(|p| p.cards.len() == 6));
    // The piles' cards are not on screen: only their sizes.
    let first_card = s.cards.get(&d.piles[0].cards[0]).unwrap().name_en.clone();
    assert!(!sees_part(&h, &first_card), "{first_card} is face down");

    // When Ben taps pile 4, it is Aki's pick.
    click(&mut h, "Ben picks pile 4 (6 cards)");
    assert!(sees_part(
        &h,
        "Aki: pick a pile (0 cards held, 19 piles left)"
    ));
    assert!(
        !sees(&h, "Ben picks pile 5 (6 cards)"),
        "Ben waits his turn"
    );
    let mut player = 0;
    while junk_ken(&h).table.step == Step::Purchase {
        let s = junk_ken(&h);
        let d = s.table.draft.as_ref().unwrap();
        let pile = d.piles.iter().position(|p| p.taken.is_none()).unwrap() + 1;
        let name = ["Aki", "Ben"][d.picker.unwrap_or(player)];
        click(&mut h, &format!("{name} picks pile {pile} (6 cards)"));
        player = 1 - player;
    }
    // Both hold 42: deck building, with the counts on screen.
    assert!(sees_part(
        &h,
        "Aki: build a deck from your holdings: main deck 0/30, EX cards 0/3; then done"
    ));
    // The seed's 5 minutes of deck building, from the last pick, as a clock time.
    let last_pick = {
        let store = Store::open_read_only(&db).unwrap();
        let id = h.state().session().unwrap().id();
        store.entries(id).unwrap().last().unwrap().at_ms
    };
    let until = tableside::sync::local_hh_mm(last_pick + 5 * 60_000);
    assert!(
        sees_part(&h, &format!("then done — 5 minutes: until {until}")),
        "the deck building says until when"
    );
    // Aki taps cards of the holdings into the deck, one by one, and takes one back out.
    let s = junk_ken(&h);
    let holding = s.table.draft.as_ref().unwrap().holdings[0][0].clone();
    let label = s.cards.get(&holding).unwrap().label();
    click(&mut h, &format!("Aki puts {label} in the deck"));
    assert!(sees_part(&h, "main deck 1/30") || sees_part(&h, "EX cards 1/3"));
    click(&mut h, &format!("Aki takes {label} out of the deck"));
    assert!(junk_ken(&h).table.draft.as_ref().unwrap().decks[0].is_empty());

    // Both build their decks (here through the tap panel's input, as the GPIO panel submits).
    // A deal can leave a player fewer than 30 cards for the main deck (EX cards and second
    // copies of Limited cards do not count): the table then overrides the deck size.
    let mut mains = [0; 2];
    for (seat, mains) in mains.iter_mut().enumerate() {
        let s = junk_ken(&h);
        let (deck, main) = legal_deck(&s, seat);
        *mains = main;
        let mut input = serde_json::json!({"input": "move", "move": {
            "type": "build-deck", "player": seat, "cards": deck}});
        if main < 30 {
            input["override_reason"] = format!("only {main} cards for the main deck").into();
        }
        h.state_mut().submit(&input).unwrap();
        h.run();
    }
    // The battle begins with the draft's numbers: 4 in hand, 2 side cards, 24 in the deck
    // (of a 30-card main deck).
    let s = junk_ken(&h);
    assert_eq!(s.table.step, Step::Set);
    assert!(
        !sees(&h, "Draft"),
        "the battle's turns, not the draft, on top"
    );
    assert_eq!(
        (s.players[0].hand, s.players[0].side, s.players[0].deck),
        (4, 2, mains[0] as i32 - 6)
    );
    // The battle ends (Ben surrenders, with the table's leave).
    h.state_mut()
        .submit(
            &serde_json::json!({"input": "move", "move": {"type": "surrender", "player": 1},
            "override_reason": "Ben gives up"}),
        )
        .unwrap();
    h.run();
    let first = h.state().session().unwrap().id();
    assert!(h.state().session().unwrap().game().outcome().is_some());

    // When the battle is over, "Next battle of the draft" starts the next match …
    click(
        &mut h,
        "Next battle of the draft (exchange, pack purchase 2)",
    );
    let next = h.state().session().unwrap().id();
    assert_ne!(next, first, "a new match, one log per battle");
    let s = junk_ken(&h);
    assert_eq!(s.table.step, Step::Exchange);
    let d = s.table.draft.as_ref().unwrap();
    assert_eq!(d.battle, 2);
    assert_eq!(d.piles.len(), 6, "the 6 piles nobody picked");
    assert_eq!((d.holdings[0].len(), d.holdings[1].len()), (42, 42));
    // … with the winner's exchange on screen.
    let winner = d.winner.unwrap();
    let (w, l) = (["Aki", "Ben"][winner], ["Aki", "Ben"][1 - winner]);
    assert!(sees_part(
        &h,
        &format!("{w}: take 2 cards from {l}'s holdings and give 2 back (taken 0, given 0)")
    ));
    // Both battles are stored, each with its own log; the first is finished.
    let store = Store::open_read_only(&db).unwrap();
    let one = load_match(&store, first).unwrap();
    assert!(one.outcome().is_some());
    let two = load_match(&store, next).unwrap();
    assert_eq!(two.len(), 0);
    assert!(two.header().rules["draft_carry"]["battle"] == 2);
}

/// The start screen's draft switch (its accessible name is the English caption).
const SWITCH: &str = "Draft (pack purchase): the app deals every card of the set in piles, the players pick piles and build their decks from their holdings";

/// A legal draft deck from a player's holdings: 30 main-deck cards and 3 EX cards, a Limited
/// card at most once (fewer main-deck cards where the holdings have no more); and how many
/// main-deck cards it has.
fn legal_deck(s: &cards::games::junk_ken::State, seat: usize) -> (Vec<String>, usize) {
    let limited = |id: &str| s.cards.get(id).is_some_and(|c| c.data.is_limited());
    let extra = |id: &str| s.cards.get(id).is_some_and(|c| c.data.is_extra());
    let (mut main, mut ex) = (Vec::new(), Vec::new());
    for id in &s.table.draft.as_ref().unwrap().holdings[seat] {
        if limited(id) && main.iter().chain(&ex).any(|c: &String| c == id) {
            continue;
        }
        if extra(id) {
            if ex.len() < 3 {
                ex.push(id.clone());
            }
        } else if main.len() < 30 {
            main.push(id.clone());
        }
    }
    let count = main.len();
    main.extend(ex);
    (main, count)
}

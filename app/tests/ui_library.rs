//! The card library in the window: a table's own set of each game chosen on the start screen,
//! with a ready-made deck of the set and a registered deck of it, started and played; and a deck
//! built in the deck editor (search by a Japanese name, copies, live rule sentences), saved as a
//! registered deck and played. Only the embedded Japanese font is installed (a missing glyph
//! panics).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod own_sets;

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::decks::Deck;
use common::*;
use egui_kittest::Harness;
use std::path::Path;
use tableside::session::{header_of, load_match};
use tableside::store::Store;
use tableside::store::library::parse_catalogue;
use tableside::ui::{FontChoice, TablesideApp, UiOptions, prepare_context};

fn open(db: &Path, size: [f32; 2]) -> H {
    let app = TablesideApp::new(UiOptions {
        db_path: db.to_path_buf(),
        kiosk: false,
        tower: None,
    });
    Harness::builder()
        .with_size(size)
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app)
}

const TITLES: [(&str, &str); 5] = [
    ("jaken", "Jaken ジャケン"),
    ("junk-ken", "JUNK-KEN JUNK-拳"),
    ("rockman-exe", "Rockman EXE ロックマンエグゼ"),
    ("space-junk", "Space Junk スペースジャンク"),
    ("yomi", "Yomi ヨミ"),
];

fn title(game: GameId) -> &'static str {
    TITLES.iter().find(|(g, _)| *g == game.as_str()).unwrap().1
}

/// Adds the own set to the library of `db` and registers Aki's deck of its first list.
fn add_own(db: &Path, own: &own_sets::Own) -> (Catalogue, String, Deck) {
    let mut store = Store::open(db).unwrap();
    let (cat, toml) = parse_catalogue("own.toml", &own.toml, None).unwrap();
    let added = store.add_catalogue(&cat, &toml, "own.toml", 1).unwrap();
    let mut deck = Deck::from_list(&cat, &cat.decks[0].id, "Aki").unwrap();
    deck.name = "Aki's own".into();
    store.register_deck(&deck, 2).unwrap();
    (cat, added.version, deck)
}

#[test]
fn an_own_set_of_every_game_is_chosen_on_the_start_screen_and_played() {
    for own in own_sets::all() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("tableside.sqlite3");
        let (cat, version, registered) = add_own(&db, &own);
        let game = own.game;
        let mut h = open(&db, [1400.0, 1000.0]);
        click(&mut h, title(game));
        click(&mut h, &format!("Set: {}", own.set_id));
        let space_junk = game == GameId::SpaceJunk;
        let first = if space_junk {
            cat.cards
                .iter()
                .find(|c| c.space_junk().and_then(|s| s.character()).is_some())
                .unwrap()
                .id
                .clone()
        } else {
            cat.decks[0].id.clone()
        };
        for (seat, name) in ["Aki", "Ben"].iter().enumerate() {
            type_into(&mut h, &format!("Player {} name", seat + 1), name);
        }
        click(&mut h, &format!("Player 1 deck: {first}"));
        if !space_junk {
            // Ben plays Aki's registered deck of the set.
            click(&mut h, "Player 2 deck: Aki/Aki's own");
        }
        click(&mut h, "Start");

        let store = Store::open(&db).unwrap();
        let id = store.unfinished().unwrap()[0].id;
        assert_eq!(
            store.match_catalogue_version(id).unwrap().as_deref(),
            Some(version.as_str()),
            "{game}: the match names the version it is played with"
        );
        let header = header_of(&store, id).unwrap();
        assert_eq!(header.catalogue, own.set_id, "{game}");
        if !space_junk {
            assert_eq!(header.players[1].deck_name, "registered/Aki/Aki's own");
            assert_eq!(
                header.players[1].deck.len(),
                registered.copies().count(),
                "{game}"
            );
        }
        // The first move offered, tapped in the window, is stored.
        let m = load_match(&store, id).unwrap();
        let action = m.actions()[0].label.clone();
        drop(store);
        click(&mut h, &action);
        let store = Store::open(&db).unwrap();
        assert_eq!(load_match(&store, id).unwrap().len(), 1, "{game}: {action}");
    }
}

#[test]
fn a_deck_built_in_the_editor_is_registered_and_played() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let own = own_sets::own(GameId::Jaken);
    let (cat, _, _) = add_own(&db, &own);
    let mut h = open(&db, [800.0, 480.0]);
    click(&mut h, "Set: own-jaken");
    click(&mut h, "Build a deck");
    // Part of a Japanese name finds the card.
    type_into(&mut h, "Search cards", "小僧");
    let imp = cat.card("QJ01").unwrap();
    let add = format!("Add {} (QJ01)", imp.name_en);
    click(&mut h, &add);
    click(&mut h, &add);
    click(&mut h, &add);
    // Three copies: the copy rule's sentence shows at once.
    assert!(
        sees_part(&h, "appears 3 times"),
        "the broken copy rule's sentence is listed"
    );
    click(&mut h, &format!("Remove one {} (QJ01)", imp.name_en));
    // The rest of the Lanterns list, found by id.
    let lantern = cat.deck("lantern").unwrap().clone();
    let mut counts = std::collections::BTreeMap::new();
    for id in &lantern.cards {
        *counts.entry(id.clone()).or_insert(0) += 1;
    }
    for (id, n) in &counts {
        if id == "QJ01" {
            continue;
        }
        type_into(&mut h, "Search cards", id);
        let name = &cat.card(id).unwrap().name_en;
        for _ in 0..*n {
            click(&mut h, &format!("Add {name} ({id})"));
        }
    }
    assert!(
        sees_part(&h, "The deck keeps every construction rule."),
        "the deck keeps every rule"
    );
    type_into(&mut h, "Deck name", "Built at the table");
    type_into(&mut h, "Deck owner", "Cho");
    click(&mut h, "Save as registered deck");
    assert!(sees_part(&h, "Registered: Cho's deck “Built at the table”"));
    click(&mut h, "Export deck file");
    let file = dir.path().join("decks/Cho-Built_at_the_table.toml");
    let exported = Deck::load("f", &std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(exported.copies().count(), lantern.cards.len());
    click(&mut h, "Close the deck editor");

    // The registered deck is offered for the set and plays.
    type_into(&mut h, "Player 1 name", "Cho");
    click(&mut h, "Player 1 deck: Cho/Built at the table");
    click(&mut h, "Start");
    let store = Store::open(&db).unwrap();
    let id = store.unfinished().unwrap()[0].id;
    let header = header_of(&store, id).unwrap();
    assert_eq!(
        header.players[0].deck_name,
        "registered/Cho/Built at the table"
    );
    let registry = store.registry().unwrap();
    assert!(
        registry
            .decks()
            .any(|d| d.owner == "Cho" && d.set == "own-jaken")
    );
}

//! The Yomi card schema and deck rules, tested.

use super::card::*;
use super::schema::*;
use crate::catalogue::Ctx;
use crate::catalogue::{Card, CardData, Catalogue, CatalogueError};
use crate::core::{GameId, Violation};
use crate::decks::Deck;
use std::collections::BTreeMap;
use std::collections::BTreeSet;

fn demo_cat() -> Catalogue {
    demo().unwrap()
}

fn move_cards(cat: &Catalogue) -> Vec<(&Card, &YomiMoveCard)> {
    cat.cards
        .iter()
        .filter_map(|c| match c.yomi() {
            Some(YomiCard::Move(m)) => Some((c, m)),
            _ => None,
        })
        .collect()
}

fn ends(cat: &Catalogue) -> Vec<(Rank, &MoveEnd)> {
    move_cards(cat)
        .into_iter()
        .flat_map(|(_, m)| m.ends().map(|e| (m.rank, e)))
        .collect()
}

// ---------------------------------------------------------------- the demo set

#[test]
fn demo_loads_as_a_labelled_demo_with_two_characters_and_their_fixed_decks() {
    // Given the embedded demo file, when it is loaded,
    let cat = demo_cat();
    // then it is a Yomi set marked as made for this app,
    assert_eq!(cat.game, GameId::Yomi);
    assert!(cat.set.demo);
    assert!(cat.set.note.contains("Not official"), "{}", cat.set.note);
    // with two characters, each with one fixed deck of 1 + 54 cards,
    let characters: Vec<&Card> = cat
        .cards
        .iter()
        .filter(|c| matches!(c.yomi(), Some(YomiCard::Character(_))))
        .collect();
    assert_eq!(characters.len(), 2);
    assert_eq!(cat.decks.len(), 2);
    for ch in &characters {
        let list = cat.decks.iter().find(|d| d.cards.contains(&ch.id)).unwrap();
        assert_eq!(list.cards.len(), 1 + DECK_SIZE, "{}", list.id);
        // every card of which belongs to that character.
        for id in &list.cards {
            let card = cat.card(id).unwrap().yomi().unwrap();
            assert!(card.character().is_none_or(|o| o == ch.id), "{id}");
        }
    }
    // Both characters' cards are told apart by their `character` field.
    let a = cat.card("YO-A05").unwrap().yomi().unwrap();
    let b = cat.card("YO-B05").unwrap().yomi().unwrap();
    assert_eq!(
        (a.character(), b.character()),
        (Some("YO-A00"), Some("YO-B00"))
    );
}

#[test]
fn demo_exercises_every_kind_and_attribute() {
    let cat = demo_cat();
    let all_ends = ends(&cat);
    for kind in [
        MoveKind::Attack,
        MoveKind::Throw,
        MoveKind::Block,
        MoveKind::Dodge,
        MoveKind::Ability,
    ] {
        assert!(all_ends.iter().any(|(_, e)| e.kind == kind), "{kind:?}");
    }
    for class in [MoveClass::Normal, MoveClass::Special, MoveClass::Super] {
        assert!(
            all_ends.iter().any(|(r, _)| r.class() == class),
            "{class:?}"
        );
    }
    for role in [ComboRole::Starter, ComboRole::Linker, ComboRole::Ender] {
        assert!(all_ends.iter().any(|(_, e)| e.has_role(role)), "{role:?}");
    }
    assert!(all_ends.iter().any(|(_, e)| e.combo.len() > 1));
    assert!(all_ends.iter().any(|(_, e)| e.knockdown));
    assert!(all_ends.iter().any(|(_, e)| e.mix_up));
    assert!(all_ends.iter().any(|(_, e)| e.block_damage.is_some()));
    assert!(all_ends.iter().any(|(_, e)| e.pump.is_some()));
    assert!(all_ends.iter().any(|(_, e)| e.extra_aces() >= 1));
    assert!(
        all_ends
            .iter()
            .any(|(r, e)| *r == Rank::Ace && e.aces == 1 && e.kind.strikes())
    );
    // Every timing word is used somewhere (character or move).
    let mut timings = BTreeSet::new();
    for card in &cat.cards {
        match card.yomi() {
            Some(YomiCard::Character(c)) => {
                timings.extend(c.abilities.iter().filter_map(|a| a.timing));
            }
            Some(YomiCard::Move(m)) => {
                for e in m.ends() {
                    timings.extend(e.abilities.iter().filter_map(|a| a.timing));
                }
            }
            _ => {}
        }
    }
    assert_eq!(timings.len(), Timing::ALL.len(), "{timings:?}");
    // Jokers, one per character, listed twice in each fixed deck.
    let jokers: Vec<&Card> = cat
        .cards
        .iter()
        .filter(|c| matches!(c.yomi(), Some(YomiCard::Joker(_))))
        .collect();
    assert_eq!(jokers.len(), 2);
    // Characters: HP, combo points, a default and a printed hand limit.
    let chars: Vec<&YomiCharacter> = cat
        .cards
        .iter()
        .filter_map(|c| match c.yomi() {
            Some(YomiCard::Character(ch)) => Some(ch),
            _ => None,
        })
        .collect();
    assert!(chars.iter().any(|c| c.hand_limit == DEFAULT_HAND_LIMIT));
    assert!(chars.iter().any(|c| c.hand_limit != DEFAULT_HAND_LIMIT));
    assert!(chars.iter().all(|c| c.hp > 0 && c.combo_points > 0));
    // Strikes have speed and damage; blocks and dodges have neither.
    for (_, e) in &all_ends {
        assert_eq!(e.kind.strikes(), e.speed.is_some());
        assert_eq!(e.kind.strikes(), e.damage.is_some());
    }
}

#[test]
fn demo_values_read_as_printed() {
    let cat = demo_cat();
    // YO-A13 is the ace of spades: two supers, needing only itself.
    let Some(YomiCard::Move(ace)) = cat.card("YO-A13").and_then(Card::yomi) else {
        panic!("YO-A13 is a move card");
    };
    assert_eq!((ace.rank, ace.suit), (Rank::Ace, Suit::Spades));
    assert_eq!(ace.top.speed, Some(Speed(4)));
    assert_eq!(ace.top.speed.map(|s| s.to_string()).as_deref(), Some("0.4"));
    assert_eq!(ace.end(End::Bottom).kind, MoveKind::Throw);
    assert_eq!(ace.top.extra_aces(), 0);
    // YO-A01 is the 2 of spades, a normal: attack on top, block below.
    let Some(YomiCard::Move(two)) = cat.card("YO-A01").and_then(Card::yomi) else {
        panic!("YO-A01 is a move card");
    };
    assert_eq!(two.rank.number(), Some(2));
    assert_eq!(two.rank.class(), MoveClass::Normal);
    assert_eq!(two.top.kind, MoveKind::Attack);
    assert_eq!(two.top.aces, 0);
    assert_eq!(two.bottom.kind, MoveKind::Block);
}

#[test]
fn demo_card_ids_fit_in_tags_and_names_are_bilingual() {
    let cat = demo_cat();
    for card in &cat.cards {
        assert!(card.id.len() <= crate::tags::MAX_CARD_ID, "{}", card.id);
        assert!(
            card.id
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-'),
            "{}",
            card.id
        );
        assert!(card.id.starts_with("YO-"), "{}", card.id);
        assert!(
            !card.name_ja.is_empty() && !card.name_en.is_empty(),
            "{}",
            card.id
        );
        assert!(!card.name_ja.is_ascii(), "{}", card.id);
    }
}

#[test]
fn card_data_round_trips_through_json() {
    let cat = demo_cat();
    let card = cat.card("YO-B26").unwrap();
    let json = serde_json::to_string(&card.data).unwrap();
    let back: CardData = serde_json::from_str(&json).unwrap();
    assert_eq!(back, card.data);
}

// ---------------------------------------------------------------- card fields

const HEAD: &str =
    "format = 1\ngame = \"yomi\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n";
// Lines 1-6 are HEAD; a card starts at line 7.

fn char_card() -> &'static str {
    "[[cards]]\nid = \"C\"\nname_ja = \"c\"\nname_en = \"c\"\nkind = \"character\"\nhp = 80\ncombo_points = 4\n"
}

/// A move card starting at line 7; `top` and `bottom` are its end tables.
fn move_card(extra: &str, top: &str, bottom: &str) -> String {
    format!(
        "{HEAD}[[cards]]\nid = \"M\"\nname_ja = \"m\"\nname_en = \"m\"\nkind = \"move\"\ncharacter = \"C\"\nrank = \"7\"\nsuit = \"hearts\"\n{extra}[cards.top]\n{top}[cards.bottom]\n{bottom}"
    )
}

const ATTACK: &str = "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\n";
const BLOCK: &str = "kind = \"block\"\n";

/// Loads with the per-card checks only (the card tests use a character `C` that is not there),
/// whether or not `Catalogue::load` runs the cross-card checks.
fn per_card(text: &str) -> Result<Catalogue, CatalogueError> {
    crate::catalogue::load_cards::<RawYomiCard>(
        &Ctx {
            file: "x.toml",
            text,
            doc: Default::default(),
        },
        GameId::Yomi,
    )
}

fn load_err(text: &str) -> CatalogueError {
    per_card(text).unwrap_err()
}

fn at(err: &CatalogueError) -> (usize, Option<&str>) {
    (err.line, err.field.as_deref())
}

#[test]
fn a_minimal_move_card_loads() {
    // Given a move card with an attack on top and a block below,
    let text = move_card("", ATTACK, BLOCK);
    // when loaded (card by card),
    let cat = per_card(&text).unwrap();
    // then its numbers are read.
    let Some(YomiCard::Move(m)) = cat.card("M").and_then(Card::yomi) else {
        panic!("M is a move card");
    };
    assert_eq!(m.rank, Rank::Number(7));
    assert_eq!(m.suit, Suit::Hearts);
    assert_eq!(m.top.speed, Some(Speed(72)));
    assert_eq!(m.top.damage, Some(5));
    assert_eq!(m.bottom.kind, MoveKind::Block);
    assert!(!m.top.knockdown && m.top.pump.is_none());
}

#[test]
fn inline_ends_and_number_ranks_load() {
    let text = format!(
        "{HEAD}[[cards]]\nid = \"M\"\nname_ja = \"m\"\nname_en = \"m\"\nkind = \"move\"\ncharacter = \"C\"\nrank = 10\nsuit = \"clubs\"\ntop = {{ kind = \"throw\", speed = 9, damage = 6, combo_points = 1, combo = [\"starter\", \"ender\"] }}\nbottom = {{ kind = \"dodge\" }}\n"
    );
    let cat = per_card(&text).unwrap();
    let Some(YomiCard::Move(m)) = cat.card("M").and_then(Card::yomi) else {
        panic!("M is a move card");
    };
    assert_eq!(m.rank, Rank::Number(10));
    assert_eq!(m.top.speed, Some(Speed(90)));
    assert_eq!(m.top.combo, [ComboRole::Starter, ComboRole::Ender]);
}

#[test]
fn bad_values_name_their_line_and_field() {
    // Given bad values in various places, each error names the line and field.
    // Speed with hundredths (line 17: HEAD 6 + card 8 + header + kind).
    let text = move_card(
        "",
        "kind = \"attack\"\nspeed = 7.25\ndamage = 5\ncombo_points = 1\n",
        BLOCK,
    );
    let err = load_err(&text);
    assert_eq!(at(&err), (17, Some("top.speed")), "{err}");
    // Damage out of range on the bottom end.
    let text = move_card(
        "",
        ATTACK,
        "kind = \"throw\"\nspeed = 9.0\ndamage = 150\ncombo_points = 1\n",
    );
    let err = load_err(&text);
    assert_eq!(at(&err), (23, Some("bottom.damage")), "{err}");
    // Unknown suit, rank, end kind, combo role and timing.
    let err = load_err(&move_card("", ATTACK, BLOCK).replace("hearts", "stars"));
    assert_eq!(at(&err), (14, Some("suit")), "{err}");
    let err = load_err(&move_card("", ATTACK, BLOCK).replace("\"7\"", "\"11\""));
    assert_eq!(at(&err), (13, Some("rank")), "{err}");
    let err = load_err(&move_card("", ATTACK, "kind = \"parry\"\n"));
    assert_eq!(at(&err), (21, Some("bottom.kind")), "{err}");
    let err = load_err(&move_card(
        "",
        "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\ncombo = \"finisher\"\n",
        BLOCK,
    ));
    assert_eq!(at(&err), (20, Some("top.combo")), "{err}");
    let err = load_err(&move_card(
        "",
        "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\nabilities = [\n  { timing = \"end-of-combat\", text = \"ok\" },\n  { timing = \"whenever\", text = \"x\" },\n]\n",
        BLOCK,
    ));
    assert_eq!(at(&err), (22, Some("top.abilities")), "{err}");
    assert!(err.message.contains("whenever"), "{err}");
    // A character's HP out of range (line 12).
    let err = load_err(&format!(
        "{HEAD}{}",
        char_card().replace("hp = 80", "hp = 0")
    ));
    assert_eq!(at(&err), (12, Some("hp")), "{err}");
    // An unknown card kind (line 11).
    let err = load_err(&format!(
        "{HEAD}{}",
        char_card().replace("character", "fighter")
    ));
    assert_eq!(at(&err), (11, Some("kind")), "{err}");
    // A field no end has (serde's unknown field, at its line).
    let err = load_err(&move_card("", ATTACK, "kind = \"block\"\nstun = 2\n"));
    assert_eq!(err.line, 22, "{err}");
    assert!(err.message.contains("stun"), "{err}");
}

#[test]
fn fields_each_kind_needs_are_required() {
    // A character without HP: reported at its kind line, naming the field.
    let err = load_err(&format!("{HEAD}{}", char_card().replace("hp = 80\n", "")));
    assert_eq!(at(&err), (11, Some("hp")), "{err}");
    // A move card without a suit.
    let err = load_err(&move_card("", ATTACK, BLOCK).replace("suit = \"hearts\"\n", ""));
    assert_eq!(at(&err), (11, Some("suit")), "{err}");
    // A move card without its character.
    let err = load_err(&move_card("", ATTACK, BLOCK).replace("character = \"C\"\n", ""));
    assert_eq!(at(&err), (11, Some("character")), "{err}");
    // A move card without a bottom end.
    let text = move_card("", ATTACK, "").replace("[cards.bottom]\n", "");
    let err = load_err(&text);
    assert_eq!(at(&err), (11, Some("bottom")), "{err}");
    // An attack without damage: at the end's kind line.
    let err = load_err(&move_card(
        "",
        "kind = \"attack\"\nspeed = 7.2\ncombo_points = 1\n",
        BLOCK,
    ));
    assert_eq!(at(&err), (16, Some("top.damage")), "{err}");
    // An ability end without abilities.
    let err = load_err(&move_card("", ATTACK, "kind = \"ability\"\n"));
    assert_eq!(at(&err), (21, Some("bottom.abilities")), "{err}");
    // A Joker without its character.
    let err = load_err(&format!(
        "{HEAD}[[cards]]\nid = \"J\"\nname_ja = \"j\"\nname_en = \"j\"\nkind = \"joker\"\n"
    ));
    assert_eq!(at(&err), (11, Some("character")), "{err}");
}

#[test]
fn fields_a_kind_does_not_have_are_refused() {
    // A block with damage, at the damage line.
    let err = load_err(&move_card("", ATTACK, "kind = \"block\"\ndamage = 2\n"));
    assert_eq!(at(&err), (22, Some("bottom.damage")), "{err}");
    // A throw with block damage.
    let err = load_err(&move_card(
        "",
        "kind = \"throw\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\nblock_damage = 1\n",
        BLOCK,
    ));
    assert_eq!(at(&err), (20, Some("top.block_damage")), "{err}");
    // A dodge with knockdown.
    let err = load_err(&move_card(
        "",
        ATTACK,
        "kind = \"dodge\"\nknockdown = true\n",
    ));
    assert_eq!(at(&err), (22, Some("bottom.knockdown")), "{err}");
    // Aces on a 7.
    let err = load_err(&move_card(
        "",
        "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\naces = 2\n",
        BLOCK,
    ));
    assert_eq!(at(&err), (20, Some("top.aces")), "{err}");
    // A pump cost without pump damage.
    let err = load_err(&move_card(
        "",
        "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\npump_cost = 1\n",
        BLOCK,
    ));
    assert_eq!(at(&err), (16, Some("top.pump_damage")), "{err}");
    // HP on a move card.
    let err = load_err(&move_card("hp = 5\n", ATTACK, BLOCK));
    assert_eq!(at(&err), (15, Some("hp")), "{err}");
    // A suit on a Joker.
    let err = load_err(&format!(
        "{HEAD}[[cards]]\nid = \"J\"\nname_ja = \"j\"\nname_en = \"j\"\nkind = \"joker\"\ncharacter = \"C\"\nsuit = \"hearts\"\n"
    ));
    assert_eq!(at(&err), (13, Some("suit")), "{err}");
    // Ends on a character card, at the end's table.
    let err = load_err(&format!("{HEAD}{}[cards.top]\n{BLOCK}", char_card()));
    assert_eq!(at(&err), (14, Some("top")), "{err}");
    // A rank on a character card.
    let err = load_err(&format!("{HEAD}{}rank = \"A\"\n", char_card()));
    assert_eq!(at(&err), (14, Some("rank")), "{err}");
}

#[test]
fn ace_supers_default_to_one_ace_and_may_need_more() {
    let text = move_card(
        "",
        ATTACK,
        "kind = \"throw\"\nspeed = 0.2\ndamage = 20\ncombo_points = 0\naces = 3\n",
    )
    .replace("\"7\"", "\"A\"");
    let cat = per_card(&text).unwrap();
    let Some(YomiCard::Move(m)) = cat.card("M").and_then(Card::yomi) else {
        panic!("M is a move card");
    };
    assert_eq!((m.top.aces, m.top.extra_aces()), (1, 0));
    assert_eq!((m.bottom.aces, m.bottom.extra_aces()), (3, 2));
    // More than four Aces cannot exist in a deck.
    let err = load_err(&text.replace("aces = 3", "aces = 5"));
    assert_eq!(at(&err), (25, Some("bottom.aces")), "{err}");
}

// ---------------------------------------------------------------- checks across cards

/// The demo text with one substitution, loaded with the cross checks.
fn demo_with(from: &str, to: &str) -> CatalogueError {
    assert!(DEMO_TOML.contains(from), "{from}");
    load("d.toml", &DEMO_TOML.replacen(from, to, 1)).unwrap_err()
}

fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).unwrap();
    text[..at].matches('\n').count() + 1
}

#[test]
fn a_card_naming_a_missing_character_is_refused_at_its_character_line() {
    let from = "id = \"YO-A05\"\nname_ja = \"風蹴り（スペードの6）\"\nname_en = \"Wind Kick (6 of Spades)\"\nkind = \"move\"\ncharacter = \"YO-A00\"";
    let to = from.replace("character = \"YO-A00\"", "character = \"YO-Z00\"");
    let err = demo_with(from, &to);
    let text = DEMO_TOML.replacen(from, &to, 1);
    assert_eq!(
        at(&err),
        (line_of(&text, "character = \"YO-Z00\""), Some("character")),
        "{err}"
    );
    assert!(err.message.contains("YO-Z00"), "{err}");
    // Naming a move card as the character is refused too.
    let to = from.replace("character = \"YO-A00\"", "character = \"YO-A01\"");
    let err = demo_with(from, &to);
    assert!(err.message.contains("not a character card"), "{err}");
}

#[test]
fn two_cards_of_one_rank_and_suit_are_refused() {
    // YO-A02 (3 of spades) relabelled as the 2 of spades.
    let from = "character = \"YO-A00\"\nrank = \"3\"\nsuit = \"spades\"";
    let err = demo_with(
        from,
        "character = \"YO-A00\"\nrank = \"2\"\nsuit = \"spades\"",
    );
    assert_eq!(err.field.as_deref(), Some("rank"), "{err}");
    assert!(err.message.contains("YO-A01"), "{err}");
}

#[test]
fn an_incomplete_or_mixed_fixed_deck_is_refused() {
    // One Joker instead of two.
    let err = demo_with("\"YO-A53\", \"YO-A53\",", "\"YO-A53\",");
    assert_eq!(err.field.as_deref(), Some("cards"), "{err}");
    assert!(err.message.contains("1 Joker(s)"), "{err}");
    // A card of the other character.
    let err = demo_with("\"YO-A52\", \"YO-A53\",", "\"YO-B52\", \"YO-A53\",");
    assert!(err.message.contains("YO-B52"), "{err}");
    // The deck's `cards` line, after its id, name and Japanese name.
    assert_eq!(err.line, line_of(DEMO_TOML, "id = \"akane\"") + 3, "{err}");
    // No character card.
    let err = demo_with("  \"YO-A00\", ", "  ");
    assert!(err.message.contains("exactly one character card"), "{err}");
}

#[test]
fn every_character_needs_exactly_one_fixed_deck() {
    // A second deck for Akane.
    let text = format!(
        "{DEMO_TOML}\n[[decks]]\nid = \"akane2\"\nname = \"again\"\ncards = {:?}\n",
        demo_cat().deck("akane").unwrap().cards
    );
    let err = load("d.toml", &text).unwrap_err();
    assert_eq!(
        at(&err),
        (line_of(&text, "id = \"akane2\""), Some("id")),
        "{err}"
    );
    // No deck for Gou.
    let cut = DEMO_TOML.find("[[decks]]\nid = \"gou\"").unwrap();
    let err = load("d.toml", &DEMO_TOML[..cut]).unwrap_err();
    assert_eq!(
        at(&err),
        (line_of(DEMO_TOML, "id = \"YO-B00\""), Some("id")),
        "{err}"
    );
}

#[test]
fn load_refuses_another_games_catalogue() {
    let err = load("j.toml", GameId::Jaken.descriptor().demo.text).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("game"), "{err}");
}

// ---------------------------------------------------------------- deck rules

/// A deck file for the demo set: `[main]` from a list of card ids (one per copy).
fn deck_text(ids: &[&str], variant: Option<&str>, extra: &[&str]) -> String {
    let count = |ids: &[&str]| {
        let mut m: BTreeMap<String, usize> = BTreeMap::new();
        for id in ids {
            *m.entry((*id).to_owned()).or_default() += 1;
        }
        m.into_iter()
            .map(|(id, n)| format!("{id} = {n}\n"))
            .collect::<String>()
    };
    let variant = variant.map_or(String::new(), |v| format!("variant = \"{v}\"\n"));
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!("[extra]\n{}", count(extra))
    };
    format!(
        "format = 1\ngame = \"yomi\"\nset = \"yomi-demo\"\nname = \"Mine\"\nowner = \"Aki\"\n{variant}[main]\n{}{extra}",
        count(ids)
    )
}

fn fixed(cat: &Catalogue, id: &str) -> Vec<String> {
    cat.deck(id).unwrap().cards.clone()
}

fn rules_of(cat: &Catalogue, text: &str) -> Vec<String> {
    let deck = Deck::load("d.toml", text).unwrap();
    deck.check(cat)
        .unwrap()
        .into_iter()
        .map(|v| v.rule)
        .collect()
}

fn violations(cat: &Catalogue, text: &str) -> Vec<Violation> {
    Deck::load("d.toml", text).unwrap().check(cat).unwrap()
}

fn refs(ids: &[String]) -> Vec<&str> {
    ids.iter().map(String::as_str).collect()
}

#[test]
fn each_fixed_deck_is_legal() {
    let cat = demo_cat();
    for id in ["akane", "gou"] {
        // Given a player's deck holding exactly the fixed deck,
        let ids = fixed(&cat, id);
        // when checked, then nothing is wrong.
        let problems = violations(&cat, &deck_text(&refs(&ids), None, &[]));
        assert!(problems.is_empty(), "{id}: {problems:?}");
    }
}

#[test]
fn a_missing_card_is_reported() {
    let cat = demo_cat();
    let ids = fixed(&cat, "akane");
    let mut short = refs(&ids);
    short.retain(|c| *c != "YO-A07");
    let v = violations(&cat, &deck_text(&short, None, &[]));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "yomi.deck-missing");
    assert!(v[0].sentence.contains("YO-A07"), "{}", v[0].sentence);
    // One Joker short is missing too.
    let mut one_joker = refs(&ids);
    one_joker.pop();
    assert_eq!(
        rules_of(&cat, &deck_text(&one_joker, None, &[])),
        ["yomi.deck-missing"]
    );
}

#[test]
fn a_surplus_copy_is_reported() {
    let cat = demo_cat();
    let ids = fixed(&cat, "gou");
    let mut more = refs(&ids);
    more.push("YO-B13");
    let v = violations(&cat, &deck_text(&more, None, &[]));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "yomi.deck-surplus");
    assert!(v[0].sentence.contains("YO-B13"), "{}", v[0].sentence);
}

#[test]
fn another_characters_card_is_reported() {
    let cat = demo_cat();
    let ids = fixed(&cat, "akane");
    let mut mixed = refs(&ids);
    mixed.push("YO-B05");
    let v = violations(&cat, &deck_text(&mixed, None, &[]));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "yomi.deck-other-character");
    assert!(v[0].sentence.contains("YO-B05"), "{}", v[0].sentence);
    // Swapped for one of Akane's: the swap shows as missing too.
    let swapped: Vec<&str> = refs(&ids)
        .into_iter()
        .map(|c| if c == "YO-A05" { "YO-B05" } else { c })
        .collect();
    assert_eq!(
        rules_of(&cat, &deck_text(&swapped, None, &[])),
        ["yomi.deck-other-character", "yomi.deck-missing"]
    );
}

#[test]
fn the_character_card_is_needed_exactly_once() {
    let cat = demo_cat();
    let ids = fixed(&cat, "akane");
    // Without it.
    let without: Vec<&str> = refs(&ids).into_iter().filter(|c| *c != "YO-A00").collect();
    let v = violations(&cat, &deck_text(&without, None, &[]));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "yomi.deck-character-card");
    assert!(v[0].sentence.contains("YO-A00"), "{}", v[0].sentence);
    // Twice.
    let mut twice = refs(&ids);
    twice.push("YO-A00");
    assert_eq!(
        rules_of(&cat, &deck_text(&twice, None, &[])),
        ["yomi.deck-character-card"]
    );
    // With the other character's card as well.
    let mut two = refs(&ids);
    two.push("YO-B00");
    assert_eq!(
        rules_of(&cat, &deck_text(&two, None, &[])),
        ["yomi.deck-character-card"]
    );
}

#[test]
fn an_extra_section_is_reported() {
    let cat = demo_cat();
    let ids = fixed(&cat, "gou");
    let v = violations(&cat, &deck_text(&refs(&ids), None, &["YO-A53"]));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "yomi.deck-extra");
}

#[test]
fn variants_beginner_is_known_others_are_not() {
    let cat = demo_cat();
    let ids = fixed(&cat, "akane");
    let no_jokers: Vec<&str> = refs(&ids).into_iter().filter(|c| *c != "YO-A53").collect();
    // The beginner game: the fixed deck without its Jokers is legal,
    assert!(violations(&cat, &deck_text(&no_jokers, Some(BEGINNER), &[])).is_empty());
    // with them it is not,
    assert_eq!(
        rules_of(&cat, &deck_text(&refs(&ids), Some(BEGINNER), &[])),
        ["yomi.deck-beginner-jokers"]
    );
    // and the standard game needs them.
    assert_eq!(
        rules_of(&cat, &deck_text(&no_jokers, None, &[])),
        ["yomi.deck-missing"]
    );
    // An unknown variant.
    assert_eq!(
        rules_of(&cat, &deck_text(&refs(&ids), Some("draft"), &[])),
        ["deck.variant"]
    );
}

#[test]
fn a_catalogue_without_the_fixed_deck_cannot_confirm_it() {
    // Loaded without the cross checks, a catalogue may lack a character's fixed deck.
    let mut cat = demo_cat();
    let ids = fixed(&cat, "akane");
    cat.decks.retain(|d| d.id != "akane");
    assert_eq!(
        rules_of(&cat, &deck_text(&refs(&ids), None, &[])),
        ["yomi.deck-fixed-list"]
    );
}

#[test]
fn an_empty_deck_is_reported() {
    let cat = demo_cat();
    assert_eq!(
        rules_of(&cat, &deck_text(&[], None, &[])),
        ["yomi.deck-character-card"]
    );
}

#[test]
fn every_violation_has_a_sentence_and_reference() {
    let cat = demo_cat();
    let ids = fixed(&cat, "akane");
    let mut bad: Vec<&str> = refs(&ids)
        .into_iter()
        .filter(|c| *c != "YO-A00" && *c != "YO-A07")
        .collect();
    bad.push("YO-B05");
    bad.push("YO-A13");
    let v = violations(&cat, &deck_text(&bad, Some("draft"), &["YO-B01"]));
    let rules: BTreeSet<&str> = v.iter().map(|v| v.rule.as_str()).collect();
    assert_eq!(v.len(), rules.len(), "one violation per rule: {v:?}");
    assert_eq!(v.len(), 6, "{v:?}");
    for v in &v {
        assert!(v.sentence.ends_with('.'), "{v}");
        assert!(!v.reference.is_empty(), "{v}");
    }
}

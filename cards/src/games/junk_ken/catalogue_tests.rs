//! The JUNK-KEN card schema and deck rules, tested.

use super::card::*;
use super::deck::*;
use super::schema::*;
use crate::catalogue::{Card, Catalogue, CatalogueError};
use crate::decks::Deck;
use std::collections::BTreeMap;

/// A one-card catalogue with the given card body (after `name_en`); the card's lines start at 11.
fn one(card: &str) -> Result<Catalogue, CatalogueError> {
    let text = format!(
        "format = 1\ngame = \"junk-ken\"\n[set]\nid = \"t\"\nname_en = \"T\"\nname_ja = \"T\"\n[[cards]]\nid = \"X1\"\nname_ja = \"x\"\nname_en = \"x\"\n{card}"
    );
    Catalogue::load("t.toml", &text)
}

const CHARACTER: &str =
    "kind = \"character\"\ncost = 2\nrock = \"atk 2\"\nscissors = \"draw 1\"\npaper = \"hp 1\"\n";

fn err_of(card: &str) -> (usize, Option<String>, String) {
    let e = one(card).unwrap_err();
    (e.line, e.field, e.message)
}

fn data(card: &str) -> JunkKenCard {
    let cat = one(card).unwrap();
    cat.cards[0].junk_ken().unwrap().clone()
}

// ---- the demo set -------------------------------------------------------------------------

#[test]
fn demo_set_loads_with_every_kind_and_icon() {
    // Given the embedded demo set, when it loads,
    let cat = demo().unwrap();
    // then it is labelled as made for Tableside,
    assert!(cat.set.demo);
    assert!(
        cat.set.note.to_lowercase().contains("not official"),
        "{}",
        cat.set.note
    );
    let cards: Vec<&JunkKenCard> = cat.cards.iter().filter_map(Card::junk_ken).collect();
    assert_eq!(cards.len(), cat.cards.len());
    // and has every kind,
    for kind in ["character", "gear", "awakening", "field"] {
        assert!(cards.iter().any(|c| c.kind_name() == kind), "{kind}");
    }
    // every skill icon, Bullet at each level,
    let icons: Vec<&SkillIcon> = cards.iter().flat_map(|c| c.icons()).collect();
    for level in 1..=3 {
        assert!(
            icons
                .iter()
                .any(|i| matches!(i, SkillIcon::Bullet { level: l, .. } if *l == level)),
            "Bullet {level}"
        );
    }
    assert!(icons.contains(&&SkillIcon::Clockwise));
    assert!(icons.contains(&&SkillIcon::Haste));
    assert!(icons.contains(&&SkillIcon::Limited));
    assert!(
        icons
            .iter()
            .any(|i| matches!(i, SkillIcon::DiceRolling { .. }))
    );
    assert!(
        icons
            .iter()
            .any(|i| matches!(i, SkillIcon::Necromancy { .. }))
    );
    // supporters with and without a <PASSIVE> skill, and a card without a supporter side,
    let supporters: Vec<Option<&Supporter>> = cards
        .iter()
        .filter_map(|c| match c {
            JunkKenCard::Character(ch) => Some(ch.supporter.as_ref()),
            _ => None,
        })
        .collect();
    assert!(supporters.iter().any(|s| s.is_some_and(|s| s.passive)));
    assert!(
        supporters
            .iter()
            .any(|s| s.is_some_and(|s| !s.passive && !s.skill.is_empty()))
    );
    assert!(supporters.iter().any(Option::is_none));
    // and both kinds of awakening target.
    let targets: Vec<&AwakenTarget> = cards
        .iter()
        .filter_map(|c| match c {
            JunkKenCard::Awakening(a) => Some(&a.target),
            _ => None,
        })
        .collect();
    assert!(
        targets
            .iter()
            .any(|t| matches!(t, AwakenTarget::Character(_)))
    );
    assert!(
        targets
            .iter()
            .any(|t| matches!(t, AwakenTarget::Category(_)))
    );
}

#[test]
fn demo_ids_names_and_targets_are_usable() {
    let cat = demo().unwrap();
    for c in &cat.cards {
        // Ids go into QR tags: A–Z, 0–9, `-`, at most 17 characters.
        assert!(c.id.len() <= crate::tags::MAX_CARD_ID, "{}", c.id);
        assert!(
            c.id.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-'),
            "{}",
            c.id
        );
        assert!(c.id.starts_with("JK"), "{}", c.id);
        assert!(!c.name_en.is_empty() && !c.text.is_empty(), "{}", c.id);
        assert!(!c.name_ja.is_ascii(), "{}: Japanese name", c.id);
        // Every awakening card can awaken some card of the set that is not in the extra deck.
        if let Some(JunkKenCard::Awakening(a)) = c.junk_ken() {
            assert!(
                cat.cards
                    .iter()
                    .any(|b| b.junk_ken().is_some_and(|j| !j.is_extra()) && a.target.matches(b)),
                "{}: {} matches no main-deck card",
                c.id,
                a.target
            );
        }
    }
}

/// A deck file from a catalogue deck list: EX cards go to `[extra]`, copies numbered 1, 2, ….
fn deck_from_list(cat: &Catalogue, cards: &[&str], variant: Option<&str>) -> Deck {
    let mut main: BTreeMap<&str, usize> = BTreeMap::new();
    let mut extra: BTreeMap<&str, usize> = BTreeMap::new();
    for id in cards {
        let ex = cat
            .card(id)
            .and_then(Card::junk_ken)
            .is_some_and(JunkKenCard::is_extra);
        let section = if ex { &mut extra } else { &mut main };
        *section.entry(id).or_insert(0) += 1;
    }
    deck_text(&main, &extra, variant)
}

fn deck_text(
    main: &BTreeMap<&str, usize>,
    extra: &BTreeMap<&str, usize>,
    variant: Option<&str>,
) -> Deck {
    let mut text = String::from(
        "format = 1\ngame = \"junk-ken\"\nset = \"junk-ken-demo\"\nname = \"D\"\nowner = \"Aki\"\n",
    );
    if let Some(v) = variant {
        text.push_str(&format!("variant = \"{v}\"\n"));
    }
    text.push_str("[main]\n");
    for (id, n) in main {
        text.push_str(&format!("{id} = {n}\n"));
    }
    text.push_str("[extra]\n");
    for (id, n) in extra {
        text.push_str(&format!("{id} = {n}\n"));
    }
    Deck::load("d.toml", &text).unwrap()
}

#[test]
fn demo_decks_are_legal_standard_decks() {
    let cat = demo().unwrap();
    assert!(cat.decks.len() >= 2);
    for list in &cat.decks {
        let ids: Vec<&str> = list.cards.iter().map(String::as_str).collect();
        let deck = deck_from_list(&cat, &ids, None);
        assert_eq!(deck.main.len(), 10, "{}", list.id);
        let problems = deck.check(&cat).unwrap();
        assert!(problems.is_empty(), "{}: {problems:?}", list.id);
    }
}

// ---- card fields ----------------------------------------------------------------------------

#[test]
fn character_reads_every_field() {
    // Given a character with every optional field,
    let c = data(&format!(
        "{CHARACTER}hp_die = 8\ncategories = [\"《機械》\", \"ガラクタ\"]\nlimited = true\nsupport_hand = \"パー\"\nsupport_action = \"HP+2\"\nsupport_skill = \"Always on.\"\nsupport_passive = true\nbullet = 3\nbullet_hands = [\"✌\", \"rock\"]\nbullet_cost = 2\nclockwise = true\ndice = \"{{2d6>=10}}⇒\"\ndice_effect = \"ATK +1\"\nhaste = true\nnecromancy_hands = [\"paper\"]\n"
    ));
    // when loaded, then every value is structured.
    let JunkKenCard::Character(ch) = c else {
        panic!("{c:?}")
    };
    assert_eq!((ch.cost, ch.hp_die), (2, 8));
    assert_eq!(ch.categories, ["機械", "ガラクタ"]);
    assert_eq!(
        ch.actions.get(Hand::Rock),
        Some(Action {
            kind: ActionKind::Atk,
            value: 2
        })
    );
    assert_eq!(
        ch.actions
            .get(Hand::Paper)
            .map(|a| a.to_string())
            .as_deref(),
        Some("HP 1")
    );
    assert_eq!(
        ch.supporter,
        Some(Supporter {
            hand: Hand::Paper,
            action: Action {
                kind: ActionKind::Hp,
                value: 2
            },
            skill: "Always on.".into(),
            passive: true
        })
    );
    let roll = DiceRoll {
        dice: 2,
        sides: 6,
        comparison: Comparison::AtLeast,
        value: 10,
    };
    assert_eq!(
        ch.icons,
        [
            SkillIcon::Limited,
            SkillIcon::Bullet {
                level: 3,
                marked_hands: vec![Hand::Rock, Hand::Scissors],
                cost: 2
            },
            SkillIcon::Clockwise,
            SkillIcon::DiceRolling {
                roll,
                effect: "ATK +1".into()
            },
            SkillIcon::Haste,
            SkillIcon::Necromancy {
                marked_hands: vec![Hand::Paper]
            },
        ]
    );
}

#[test]
fn defaults_and_a_hand_without_action() {
    let c = data(
        "kind = \"character\"\ncost = 0\nrock = \"none\"\nscissors = \"atk 1\"\npaper = \"-\"\n",
    );
    assert_eq!(c.hp_die(), Some(DEFAULT_HP_DIE));
    assert_eq!(c.actions().and_then(|a| a.get(Hand::Rock)), None);
    assert!(c.icons().is_empty() && !c.is_limited() && !c.is_extra());
    let JunkKenCard::Character(ch) = c else {
        panic!()
    };
    assert_eq!(ch.supporter, None);
    let f = data("kind = \"field\"\ncount = 3\nscope = \"全員\"\n");
    assert_eq!(
        f,
        JunkKenCard::Field(JunkKenField {
            count: 3,
            attribute: None,
            scope: FieldScope::All,
            spend: 1,
            categories: vec![],
            icons: vec![]
        })
    );
    assert!(f.is_extra() && f.cost() == 0);
}

#[test]
fn gear_awakening_and_field_read_their_fields() {
    let g = data(
        "kind = \"gear\"\ncost = 2\ndurability = 3\ndurability_event = \"Each hit.\"\nlimited = true\n",
    );
    assert_eq!(
        g,
        JunkKenCard::Gear(JunkKenGear {
            cost: 2,
            durability: 3,
            durability_event: "Each hit.".into(),
            categories: vec![],
            icons: vec![SkillIcon::Limited]
        })
    );
    let a = data(
        "kind = \"awakening\"\ntarget_character = \"【フーコ】\"\nrock = \"atk 3\"\nscissors = \"draw 1\"\npaper = \"hp 2\"\nclockwise = true\n",
    );
    let JunkKenCard::Awakening(aw) = &a else {
        panic!()
    };
    assert_eq!(aw.target, AwakenTarget::Character("フーコ".into()));
    assert_eq!(aw.icons, [SkillIcon::Clockwise]);
    let f = data(
        "kind = \"field\"\ncount = 4\nattribute = \"scissors\"\nscope = \"opponent\"\nspend = 0\n",
    );
    let JunkKenCard::Field(fi) = f else { panic!() };
    assert_eq!(
        (fi.attribute, fi.scope, fi.spend),
        (Some(Hand::Scissors), FieldScope::Opponent, 0)
    );
}

#[test]
fn bad_values_name_line_and_field() {
    // An unknown action on the `scissors` line (line 14).
    let (line, field, msg) = err_of(&CHARACTER.replace("draw 1", "punch 1"));
    assert_eq!((line, field.as_deref()), (14, Some("scissors")), "{msg}");
    assert!(msg.contains("punch"), "{msg}");
    // An amount out of range.
    let (line, field, _) = err_of(&CHARACTER.replace("atk 2", "atk 12"));
    assert_eq!((line, field.as_deref()), (13, Some("rock")));
    // A cost out of range (line 12).
    let (line, field, _) = err_of(&CHARACTER.replace("cost = 2", "cost = 11"));
    assert_eq!((line, field.as_deref()), (12, Some("cost")));
    // An unknown hand in the supporter's attribute (line 16).
    let (line, field, msg) = err_of(&format!(
        "{CHARACTER}support_hand = \"fist\"\nsupport_action = \"atk 1\"\n"
    ));
    assert_eq!(
        (line, field.as_deref()),
        (16, Some("support_hand")),
        "{msg}"
    );
    // A bad dice roll.
    for bad in [
        "{1d6=7}", "{1d6>=1}", "1x6=6", "{1d6=6", "{1d6}", "{0d6=1}", "{1d1=1}",
    ] {
        let (line, field, msg) = err_of(&format!(
            "{CHARACTER}dice = \"{bad}\"\ndice_effect = \"x\"\n"
        ));
        assert_eq!((line, field.as_deref()), (16, Some("dice")), "{bad}: {msg}");
    }
    // Bullet level, cost above level, and a hand named twice.
    let (line, field, _) = err_of(&format!(
        "{CHARACTER}bullet = 4\nbullet_hands = [\"rock\"]\nbullet_cost = 1\n"
    ));
    assert_eq!((line, field.as_deref()), (16, Some("bullet")));
    let (line, field, _) = err_of(&format!(
        "{CHARACTER}bullet = 1\nbullet_hands = [\"rock\"]\nbullet_cost = 2\n"
    ));
    assert_eq!((line, field.as_deref()), (18, Some("bullet_cost")));
    let (line, field, _) = err_of(&format!(
        "{CHARACTER}necromancy_hands = [\"rock\", \"グー\"]\n"
    ));
    assert_eq!((line, field.as_deref()), (16, Some("necromancy_hands")));
    let (line, field, _) = err_of(&format!("{CHARACTER}necromancy_hands = []\n"));
    assert_eq!((line, field.as_deref()), (16, Some("necromancy_hands")));
    // Ranges of the other kinds.
    let (line, field, _) = err_of(&format!("{CHARACTER}hp_die = 1\n"));
    assert_eq!((line, field.as_deref()), (16, Some("hp_die")));
    let (line, field, _) = err_of("kind = \"gear\"\ncost = 1\ndurability = 0\n");
    assert_eq!((line, field.as_deref()), (13, Some("durability")));
    let (line, field, _) = err_of("kind = \"field\"\ncount = 2\nscope = \"all\"\nspend = 3\n");
    assert_eq!((line, field.as_deref()), (14, Some("spend")));
    let (line, field, _) = err_of("kind = \"field\"\ncount = 2\nscope = \"everyone\"\n");
    assert_eq!((line, field.as_deref()), (13, Some("scope")));
    let (line, field, _) =
        err_of("kind = \"field\"\ncount = 2\nscope = \"all\"\nattribute = \"stone\"\n");
    assert_eq!((line, field.as_deref()), (14, Some("attribute")));
    let (line, field, _) = err_of(&format!("{CHARACTER}categories = [\"\"]\n"));
    assert_eq!((line, field.as_deref()), (16, Some("categories")));
    // An unknown kind, a misspelt field and a wrong type.
    let (line, field, _) = err_of("kind = \"monster\"\n");
    assert_eq!((line, field.as_deref()), (11, Some("kind")));
    let (line, field, _) = err_of(&format!("{CHARACTER}haste_ = true\n"));
    assert_eq!((line, field.as_deref()), (16, Some("haste_")));
    let (line, _, _) = err_of(&CHARACTER.replace("cost = 2", "cost = \"two\""));
    assert_eq!(line, 12);
}

#[test]
fn each_kind_needs_its_fields() {
    // Needed fields are reported on the `kind` line (11) and named.
    for (card, missing) in [
        (
            "kind = \"character\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\n",
            "cost",
        ),
        (
            "kind = \"character\"\ncost = 1\nscissors = \"atk 1\"\npaper = \"atk 1\"\n",
            "rock",
        ),
        (
            "kind = \"character\"\ncost = 1\nrock = \"atk 1\"\npaper = \"atk 1\"\n",
            "scissors",
        ),
        (
            "kind = \"character\"\ncost = 1\nrock = \"atk 1\"\nscissors = \"atk 1\"\n",
            "paper",
        ),
        ("kind = \"gear\"\ndurability = 2\n", "cost"),
        ("kind = \"gear\"\ncost = 2\n", "durability"),
        (
            "kind = \"awakening\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\n",
            "target_character",
        ),
        (
            "kind = \"awakening\"\ntarget_category = \"機械\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\n",
            "rock",
        ),
        ("kind = \"field\"\nscope = \"all\"\n", "count"),
        ("kind = \"field\"\ncount = 2\n", "scope"),
    ] {
        let (line, field, msg) = err_of(card);
        assert_eq!(
            (line, field.as_deref()),
            (11, Some(missing)),
            "{card}: {msg}"
        );
    }
    // Groups: the missing partner is reported on the line of the field that needs it.
    for (extra, line, missing) in [
        ("support_hand = \"rock\"\n", 16, "support_action"),
        ("bullet = 2\nbullet_cost = 1\n", 16, "bullet_hands"),
        ("bullet = 2\nbullet_hands = [\"rock\"]\n", 16, "bullet_cost"),
        ("dice = \"{1d6=6}\"\n", 16, "dice_effect"),
        (
            "support_hand = \"rock\"\nsupport_action = \"atk 1\"\nsupport_passive = true\n",
            18,
            "support_skill",
        ),
    ] {
        let (l, field, msg) = err_of(&format!("{CHARACTER}{extra}"));
        assert_eq!(
            (l, field.as_deref()),
            (line, Some(missing)),
            "{extra}: {msg}"
        );
    }
    // A character with no action at all.
    let (_, field, _) = err_of(
        "kind = \"character\"\ncost = 1\nrock = \"none\"\nscissors = \"none\"\npaper = \"none\"\n",
    );
    assert_eq!(field.as_deref(), Some("rock"));
}

#[test]
fn each_kind_refuses_fields_it_has_not() {
    // Forbidden fields are reported on their own line (the last line here) and named.
    for (card, forbidden) in [
        (format!("{CHARACTER}durability = 2\n"), "durability"),
        (format!("{CHARACTER}count = 2\n"), "count"),
        (format!("{CHARACTER}target_character = \"a\"\n"), "target_character"),
        ("kind = \"gear\"\ncost = 1\ndurability = 2\nrock = \"atk 1\"\n".to_owned(), "rock"),
        ("kind = \"gear\"\ncost = 1\ndurability = 2\nhaste = true\n".to_owned(), "haste"),
        ("kind = \"gear\"\ncost = 1\ndurability = 2\nsupport_hand = \"rock\"\n".to_owned(), "support_hand"),
        ("kind = \"awakening\"\ntarget_category = \"c\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\ncost = 1\n".to_owned(), "cost"),
        ("kind = \"awakening\"\ntarget_category = \"c\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\nsupport_hand = \"rock\"\n".to_owned(), "support_hand"),
        ("kind = \"field\"\ncount = 2\nscope = \"all\"\ncost = 1\n".to_owned(), "cost"),
        ("kind = \"field\"\ncount = 2\nscope = \"all\"\ndice = \"{1d6=6}\"\n".to_owned(), "dice"),
        // Partners without the field they go with.
        (format!("{CHARACTER}bullet_hands = [\"rock\"]\n"), "bullet_hands"),
        (format!("{CHARACTER}bullet_cost = 1\n"), "bullet_cost"),
        (format!("{CHARACTER}dice_effect = \"x\"\n"), "dice_effect"),
        (format!("{CHARACTER}support_action = \"atk 1\"\n"), "support_action"),
        (format!("{CHARACTER}support_skill = \"x\"\n"), "support_skill"),
        (format!("{CHARACTER}support_passive = false\n"), "support_passive"),
        ("kind = \"awakening\"\ntarget_character = \"a\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\ntarget_category = \"c\"\n".to_owned(), "target_category"),
    ] {
        let last_line = 10 + card.lines().count();
        let (line, field, msg) = err_of(&card);
        assert_eq!((line, field.as_deref()), (last_line, Some(forbidden)), "{card}: {msg}");
    }
}

#[test]
fn dice_rolls_parse_and_decide() {
    let r = DiceRoll::parse("{1d6=6}⇒").unwrap();
    assert_eq!(r.notation(), "{1d6=6}");
    assert!(r.holds(6) && !r.holds(5));
    let r = DiceRoll::parse(" d6 ≥ 5 ").unwrap();
    assert_eq!((r.dice, r.comparison, r.value), (1, Comparison::AtLeast, 5));
    assert!(r.holds(5) && !r.holds(4));
    let r = DiceRoll::parse("{2d6<4}").unwrap();
    assert!(r.holds(3) && !r.holds(4));
    assert_eq!((r.min_total(), r.max_total()), (2, 12));
    assert!(DiceRoll::parse("{1d6>6}").is_err());
    assert!(DiceRoll::parse("{1d6<=6}").is_err());
}

#[test]
fn hands_and_targets() {
    assert!(Hand::Rock.beats(Hand::Scissors) && Hand::Scissors.beats(Hand::Paper));
    assert!(Hand::Paper.beats(Hand::Rock) && !Hand::Rock.beats(Hand::Rock));
    assert!(!Hand::Rock.beats(Hand::Paper));
    assert_eq!(Hand::parse("チョキ"), Some(Hand::Scissors));
    assert_eq!(Hand::parse("✋"), Some(Hand::Paper));
    assert_eq!(Hand::parse("ROCK"), Some(Hand::Rock));
    let cat = demo().unwrap();
    let screw = cat.card("JK01").unwrap();
    assert!(AwakenTarget::Character("ネジ丸".into()).matches(screw));
    assert!(AwakenTarget::Category("ガラクタ".into()).matches(screw));
    assert!(!AwakenTarget::Category("機械".into()).matches(screw));
}

#[test]
fn card_data_round_trips_through_json() {
    let cat = demo().unwrap();
    let json = serde_json::to_string(&cat).unwrap();
    let back: Catalogue = serde_json::from_str(&json).unwrap();
    assert_eq!(back, cat);
}

// ---- decks ---------------------------------------------------------------------------------

fn map<'a>(entries: &[(&'a str, usize)]) -> BTreeMap<&'a str, usize> {
    entries.iter().copied().collect()
}

/// A legal standard main deck: 10 cards, cost 2+2+3+1+1+3+2+5+2+1 = 22, Limited JK10 once.
const MAIN: &[(&str, usize)] = &[
    ("JK01", 2),
    ("JK02", 1),
    ("JK05", 2),
    ("JK06", 1),
    ("JK07", 1),
    ("JK10", 1),
    ("JK15", 1),
    ("JK16", 1),
];
const EXTRA: &[(&str, usize)] = &[("JK18", 1), ("JK19", 1), ("JK22", 1)];

fn rules_of(main: &[(&str, usize)], extra: &[(&str, usize)], variant: Option<&str>) -> Vec<String> {
    let cat = demo().unwrap();
    let deck = deck_text(&map(main), &map(extra), variant);
    let problems = deck.check(&cat).unwrap();
    for p in &problems {
        assert!(
            !p.sentence.is_empty()
                && ((!p.reference.is_empty() && !p.reference.contains(".md"))
                    || p.rule == "deck.variant"),
            "{p}"
        );
    }
    problems.into_iter().map(|p| p.rule).collect()
}

fn with(base: &[(&'static str, usize)], id: &'static str, n: usize) -> Vec<(&'static str, usize)> {
    let mut v: Vec<(&str, usize)> = base.iter().copied().filter(|(i, _)| *i != id).collect();
    if n > 0 {
        v.push((id, n));
    }
    v
}

#[test]
fn legal_standard_deck_passes() {
    // Given 10 main cards costing 22 and 3 EX cards, then no rule is broken.
    assert_eq!(rules_of(MAIN, EXTRA, None), Vec::<String>::new());
    // An empty extra deck is legal too.
    assert_eq!(rules_of(MAIN, &[], None), Vec::<String>::new());
}

#[test]
fn legal_draft_deck_passes() {
    // Given 30 main cards (cost 70, no cap in the draft) and 3 EX cards.
    let main = [
        ("JK01", 4),
        ("JK02", 4),
        ("JK03", 4),
        ("JK04", 3),
        ("JK05", 3),
        ("JK06", 3),
        ("JK10", 1),
        ("JK11", 3),
        ("JK13", 3),
        ("JK15", 2),
    ];
    assert_eq!(rules_of(&main, EXTRA, Some("draft")), Vec::<String>::new());
    assert_eq!(
        DeckRules::for_variant(Some(DRAFT)).map(|r| r.side_cards),
        Some(2)
    );
    assert_eq!(DeckRules::for_variant(None).map(|r| r.side_cards), Some(1));
}

#[test]
fn deck_size_rule() {
    // 9 main cards.
    assert_eq!(
        rules_of(&with(MAIN, "JK01", 1), EXTRA, None),
        ["junk-ken.deck-size"]
    );
    // 11 main cards (cost 23).
    assert_eq!(
        rules_of(&with(MAIN, "JK16", 2), EXTRA, None),
        ["junk-ken.deck-size"]
    );
    // The standard 10 cards are not a draft deck.
    assert_eq!(rules_of(MAIN, EXTRA, Some("draft")), ["junk-ken.deck-size"]);
    let cat = demo().unwrap();
    let deck = deck_text(&map(&with(MAIN, "JK01", 1)), &map(EXTRA), None);
    let v = check_deck(&deck, &cat);
    assert!(
        v[0].sentence.contains("exactly 10") && v[0].sentence.contains('9'),
        "{}",
        v[0]
    );
}

#[test]
fn extra_size_rule() {
    let extra = [("JK18", 1), ("JK19", 1), ("JK20", 1), ("JK22", 1)];
    assert_eq!(rules_of(MAIN, &extra, None), ["junk-ken.extra-size"]);
    assert_eq!(
        rules_of(&with(MAIN, "JK01", 22), &extra, Some("draft")),
        ["junk-ken.extra-size"]
    );
}

#[test]
fn main_kind_rule() {
    // An awakening card in the main deck instead of a JK16 (still 10 cards, cost 21).
    let main = [with(MAIN, "JK16", 0), vec![("JK20", 1)]].concat();
    assert_eq!(rules_of(&main, EXTRA, None), ["junk-ken.main-kind"]);
    let cat = demo().unwrap();
    let v = check_deck(&deck_text(&map(&main), &map(EXTRA), None), &cat);
    assert!(
        v[0].sentence.contains("JK20") && v[0].sentence.contains("awakening"),
        "{}",
        v[0]
    );
}

#[test]
fn extra_kind_rule() {
    // A gear card in the extra deck.
    let extra = [("JK18", 1), ("JK17", 1)];
    assert_eq!(rules_of(MAIN, &extra, None), ["junk-ken.extra-kind"]);
}

#[test]
fn cost_cap_rule() {
    // From cost 22: swap JK16 (1) for a second JK02 (3): 24; then JK07 (2) for JK04 (3): 25.
    let at_cap = with(&with(MAIN, "JK16", 0), "JK02", 2);
    let at_cap = [with(&at_cap, "JK07", 0), vec![("JK04", 1)]].concat();
    assert_eq!(rules_of(&at_cap, EXTRA, None), Vec::<String>::new());
    // One more point (JK05 cost 1 → JK13 cost 2) is over the cap.
    let over = [with(&at_cap, "JK05", 1), vec![("JK13", 1)]].concat();
    assert_eq!(rules_of(&over, EXTRA, None), ["junk-ken.cost-cap"]);
    let cat = demo().unwrap();
    let v = check_deck(&deck_text(&map(&over), &map(EXTRA), None), &cat);
    assert!(
        v[0].sentence.contains("26") && v[0].sentence.contains("25"),
        "{}",
        v[0]
    );
    // The draft has no cap.
    let many = [("JK10", 1), ("JK02", 10), ("JK04", 10), ("JK06", 9)];
    assert_eq!(rules_of(&many, EXTRA, Some("draft")), Vec::<String>::new());
}

#[test]
fn limited_rule() {
    // Two copies of the Limited gear JK17 (cost 3 each) instead of JK15 + JK16: cost 25.
    let main = [with(&with(MAIN, "JK15", 0), "JK16", 0), vec![("JK17", 2)]].concat();
    assert_eq!(rules_of(&main, EXTRA, None), ["junk-ken.limited"]);
    // Two copies of a Limited awakening card in the extra deck.
    assert_eq!(rules_of(MAIN, &[("JK21", 2)], None), ["junk-ken.limited"]);
    // The draft keeps the limit.
    let draft = [("JK10", 2), ("JK01", 28)];
    assert_eq!(rules_of(&draft, &[], Some("draft")), ["junk-ken.limited"]);
    let cat = demo().unwrap();
    let v = check_deck(&deck_text(&map(&draft), &map(&[]), Some("draft")), &cat);
    assert!(
        v[0].sentence.contains("JK10") && v[0].sentence.contains("×2"),
        "{}",
        v[0]
    );
}

#[test]
fn unknown_variant_is_the_only_violation() {
    assert_eq!(
        rules_of(&with(MAIN, "JK01", 1), EXTRA, Some("sealed")),
        ["deck.variant"]
    );
}

#[test]
fn several_broken_rules_give_one_violation_each() {
    let main = [("JK10", 2), ("JK02", 8), ("JK20", 1)];
    let extra = [("JK15", 1), ("JK18", 1), ("JK19", 1), ("JK22", 1)];
    assert_eq!(
        rules_of(&main, &extra, None),
        [
            "junk-ken.deck-size",
            "junk-ken.extra-size",
            "junk-ken.main-kind",
            "junk-ken.extra-kind",
            "junk-ken.cost-cap",
            "junk-ken.limited",
        ]
    );
}

//! JUNK-KEN scenarios in given / when / then form: every worked example of `rules/junk-ken.md`
//! §11, every FAQ answer of the seed, every skill icon, each refusal rule and each house rule.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::catalogue::junk_ken::{DEMO_TOML, Hand, check_deck};
use cards::core::{DieSource, GameId, Outcome, PromptKind, Roll, TrackerId, Violation};
use cards::decks::{CopyRef, Deck};
use cards::game::{MatchHeader, PlayerConfig};
use cards::games::junk_ken::{JunkKen, Move, State, Step, Support, draft_piles, picks_to_pass};
use cards::matches::{Input, Match, Rejection};

use Hand::{Paper, Rock, Scissors};

mod common;

/// The demo set plus a few test cards: JK90 awakens 【鉄くず銃士】 with Bullet I (グー), JK91
/// awakens a 《機械》 character without Clockwise, JK92 is a cost-4 character.
fn catalogue() -> Catalogue {
    let extra = r#"
[[cards]]
id = "JK90"
name_ja = "鉄くず銃士・軽"
name_en = "Scrap Gunner Light"
kind = "awakening"
target_character = "鉄くず銃士"
categories = ["機械"]
rock = "atk 1"
scissors = "atk 1"
paper = "hp 1"
bullet = 1
bullet_hands = ["rock"]
bullet_cost = 1
text = "BULLET I (グー)."

[[cards]]
id = "JK91"
name_ja = "機械兵"
name_en = "Machine Trooper"
kind = "awakening"
target_category = "機械"
categories = ["機械"]
rock = "atk 2"
scissors = "atk 2"
paper = "hp 2"
text = "Awakens a 《機械》 character."

[[cards]]
id = "JK92"
name_ja = "重い箱"
name_en = "Heavy Box"
kind = "character"
cost = 4
categories = ["ガラクタ"]
rock = "atk 1"
scissors = "atk 1"
paper = "hp 1"
text = "Heavy."
"#;
    Catalogue::load("test.toml", &format!("{DEMO_TOML}\n{extra}")).expect("test catalogue")
}

/// A legal 10-card main deck (cost 18): characters of every icon and the gear バネ足 (JK16).
const MAIN: [&str; 10] = [
    "JK01", "JK03", "JK04", "JK05", "JK06", "JK07", "JK08", "JK09", "JK12", "JK16",
];

fn cards(main: &[&str], extra: &[&str]) -> Vec<String> {
    main.iter().chain(extra).map(|s| (*s).to_owned()).collect()
}

struct Table {
    m: Match<JunkKen>,
}

fn header(rules: serde_json::Value, decks: [Vec<String>; 2]) -> MatchHeader {
    let [a, b] = decks;
    MatchHeader {
        game: GameId::JunkKen,
        catalogue: "junk-ken-demo".into(),
        players: vec![
            PlayerConfig {
                name: "Aki".into(),
                deck_name: "test".into(),
                deck: a,
            },
            PlayerConfig {
                name: "Ben".into(),
                deck_name: "test".into(),
                deck: b,
            },
        ],
        rules,
    }
}

impl Table {
    fn with(rules: serde_json::Value, extra: [&[&str]; 2]) -> Table {
        let cat = catalogue();
        let h = header(rules, [cards(&MAIN, extra[0]), cards(&MAIN, extra[1])]);
        Table {
            m: Match::new(h, &cat).unwrap(),
        }
    }
    fn new() -> Table {
        Table::with(
            serde_json::Value::Null,
            [&["JK18", "JK22"], &["JK23", "JK24"]],
        )
    }
    fn s(&self) -> &State {
        self.m.state()
    }
    fn try_play(&mut self, mv: Move) -> Result<(), Rejection> {
        let p = self.m.prepare(&Input::Move {
            mv,
            override_reason: None,
        })?;
        assert!(self.m.commit(p));
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        let text = format!("{mv:?}");
        self.try_play(mv)
            .unwrap_or_else(|e| panic!("{text} was not accepted: {e}"));
    }
    fn refused(&mut self, mv: Move) -> Vec<Violation> {
        match self.m.prepare(&Input::Move {
            mv,
            override_reason: None,
        }) {
            Err(Rejection::Refused { violations }) => violations,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
    /// Then: `mv` is refused by `rule`, both sentences name the cause, and overridden it applies
    /// and is logged (see `common::refused_then_overridden`).
    fn refused_then_overridden(&mut self, mv: Move, rule: &str, en: &[&str], ja: &[&str]) {
        common::refused_then_overridden(&mut self.m, &catalogue(), mv, "agreed", rule, en, ja);
    }
    fn override_play(&mut self, mv: Move) {
        let p = self
            .m
            .prepare(&Input::Move {
                mv,
                override_reason: Some("agreed".into()),
            })
            .unwrap();
        assert!(self.m.commit(p));
    }
    fn roll(&mut self, seat: usize, sides: u8, value: u8) {
        let p = self
            .m
            .prepare(&Input::Roll {
                roll: Roll {
                    sides,
                    value,
                    source: DieSource::Typed,
                    seat: Some(seat),
                    throw: None,
                },
            })
            .unwrap();
        assert!(
            matches!(p.effect(), cards::matches::EntryEffect::Fulfilled(_)),
            "the d{sides} = {value} answered no prompt"
        );
        assert!(self.m.commit(p));
    }
    fn place(&mut self, seat: usize, card: &str, hp: u8) {
        self.play(Move::PlaceCharacter {
            player: seat,
            card: card.into(),
        });
        self.roll(seat, 6, hp);
    }
    fn done(&mut self) {
        for player in 0..2 {
            if !self.s().players[player].set_done {
                self.play(Move::EndSet { player });
            }
        }
    }
    fn throw(&mut self, hand0: Hand, hand1: Hand) {
        self.play(Move::Janken { hand0, hand1 });
    }
    fn end_janken(&mut self) {
        self.play(Move::EndJanken {});
    }
    fn end_turn(&mut self) {
        self.play(Move::EndTurn {});
    }
    /// Set done, the given hands, janken end and turn end.
    fn turn(&mut self, hand0: Hand, hand1: Hand) {
        self.done();
        self.throw(hand0, hand1);
        self.end_janken();
        self.end_turn();
    }
    fn tracker(&self, seat: Option<usize>, name: &str) -> Option<i32> {
        self.m
            .trackers()
            .into_iter()
            .find(|t| t.id == TrackerId::named(seat, name))
            .map(|t| t.value)
    }
    fn hp(&self, seat: usize) -> i32 {
        self.s().players[seat].character.as_ref().unwrap().hp
    }
    fn bullet(&self, seat: usize) -> u8 {
        self.s().players[seat].character.as_ref().unwrap().bullet
    }
    fn rotation(&self, seat: usize) -> Option<u16> {
        self.s().players[seat].character.as_ref().unwrap().rotation
    }
    /// Turn 1 with both characters placed (HP 6 each unless given).
    fn started(
        rules: serde_json::Value,
        extra: [&[&str]; 2],
        chars: [&str; 2],
        hp: [u8; 2],
    ) -> Table {
        let mut t = Table::with(rules, extra);
        t.place(0, chars[0], hp[0]);
        t.place(1, chars[1], hp[1]);
        t
    }
}

fn rules_of(v: &[Violation]) -> Vec<&str> {
    v.iter().map(|v| v.rule.as_str()).collect()
}

fn deck_of(main: &[&str], extra: &[&str], variant: Option<&str>) -> Deck {
    let copies = |ids: &[&str]| {
        let mut v: Vec<CopyRef> = Vec::new();
        for id in ids {
            let n = v.iter().filter(|c| c.card == *id).count() as u16 + 1;
            v.push(CopyRef {
                card: (*id).into(),
                copy: n,
            });
        }
        v.sort();
        v
    };
    Deck {
        game: GameId::JunkKen,
        set: "junk-ken-demo".into(),
        name: "t".into(),
        owner: "t".into(),
        variant: variant.map(str::to_owned),
        main: copies(main),
        extra: copies(extra),
    }
}

// ---- §11 worked examples -------------------------------------------------------------------

#[test]
fn example_1_deck_validation() {
    let cat = catalogue();
    // Given a main deck with costs 3,3,3,2,2,2,3,2,2,2 (Σ 24),
    let main = [
        "JK02", "JK04", "JK06", "JK01", "JK07", "JK08", "JK14", "JK09", "JK11", "JK13",
    ];
    // When it is checked, Then it is valid, with 3 extra cards too.
    assert!(check_deck(&deck_of(&main, &[], None), &cat).is_empty());
    assert!(check_deck(&deck_of(&main, &["JK18", "JK19", "JK22"], None), &cat).is_empty());
    // Given one cost-2 card changed to cost 4 (Σ 26), Then the cost cap is broken.
    let mut heavy = main;
    heavy[9] = "JK92";
    assert_eq!(
        rules_of(&check_deck(&deck_of(&heavy, &[], None), &cat)),
        ["junk-ken.cost-cap"]
    );
    // Given 4 extra cards, Then the extra deck is too big.
    assert_eq!(
        rules_of(&check_deck(
            &deck_of(&main, &["JK18", "JK19", "JK22", "JK23"], None),
            &cat
        )),
        ["junk-ken.extra-size"]
    );
    // Given a Limited card twice (main and extra deck), Then the Limited rule is broken.
    let mut limited = main;
    limited[9] = "JK10";
    let v = check_deck(&deck_of(&limited, &["JK10"], None), &cat);
    assert!(rules_of(&v).contains(&"junk-ken.limited"), "{v:?}");
    // And the match refuses such a deck at setup.
    let h = header(
        serde_json::Value::Null,
        [cards(&heavy, &[]), cards(&MAIN, &[])],
    );
    assert!(Match::<JunkKen>::new(h, &cat).is_err());
}

#[test]
fn example_2_setup_counts() {
    // Given a 10-card deck, When the match is set up,
    let t = Table::new();
    // Then hand 4, side 1, deck 5, at turn 1's set phase.
    for seat in 0..2 {
        assert_eq!(t.tracker(Some(seat), "hand"), Some(4));
        assert_eq!(t.tracker(Some(seat), "side"), Some(1));
        assert_eq!(t.tracker(Some(seat), "deck"), Some(5));
    }
    assert_eq!(t.s().table.step, Step::Set);
    assert_eq!(t.s().table.turn, 1);
}

#[test]
fn example_3_field_countdown() {
    // Given a field with count 3 placed in the set phase of turn 4,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK22"], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    for _ in 1..4 {
        t.turn(Rock, Rock);
    }
    assert_eq!(t.s().table.turn, 4);
    let u = t.m.clone();
    t.play(Move::PlaceField {
        player: 0,
        card: "JK22".into(),
    });
    assert_eq!(t.tracker(Some(0), "field"), Some(3));
    // When the janken phase of turn 4 ends, Then the die shows 2.
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    assert_eq!(t.tracker(Some(0), "field"), Some(2));
    t.end_turn();
    // When the owner spends 1 in turn 5, Then 1; at the end of turn 5's janken phase it is removed.
    t.play(Move::SpendField { player: 0 });
    assert_eq!(t.tracker(Some(0), "field"), Some(1));
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    assert!(t.s().players[0].field.is_none());
    assert_eq!(t.s().players[0].removed, vec!["JK22".to_owned()]);
    // Without the spend it is removed at the end of turn 6's janken phase.
    let mut w = Table { m: u };
    w.play(Move::PlaceField {
        player: 0,
        card: "JK22".into(),
    });
    w.turn(Rock, Rock);
    w.turn(Rock, Rock);
    assert_eq!(w.tracker(Some(0), "field"), Some(1));
    w.done();
    w.throw(Rock, Rock);
    w.end_janken();
    assert!(w.s().players[0].field.is_none());
}

#[test]
fn example_4a_supporter_expires_after_two_janken_phases() {
    // Given a supporter with attribute パー (空き缶) placed in the set phase of turn 2,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.turn(Rock, Rock);
    t.play(Move::PlaceSupporter {
        player: 0,
        card: "JK03".into(),
    });
    // When its owner never wins with パー,
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    // Then after turn 2's janken phase its age is 1, and turn 3's destroys it.
    assert_eq!(t.tracker(Some(0), "supporter-age"), Some(1));
    t.end_turn();
    t.done();
    t.throw(Scissors, Scissors);
    t.end_janken();
    assert_eq!(t.s().players[0].support, Support::Empty);
    assert_eq!(t.s().players[0].graveyard[0].card, "JK03");
}

#[test]
fn example_4b_supporter_that_wins_with_its_hand_is_destroyed_at_turn_end() {
    // Given a パー supporter placed on turn 2,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.turn(Rock, Rock);
    t.play(Move::PlaceSupporter {
        player: 0,
        card: "JK03".into(),
    });
    t.done();
    // When its owner wins with パー (ネジ丸: HP 1; 空き缶 supporter: HP 1),
    t.play(Move::Effect {
        player: 1,
        damage: 3,
        self_damage: 0,
        heal: 0,
        draw: 0,
        note: "a hit".into(),
    });
    assert_eq!(t.hp(0), 3);
    t.throw(Paper, Rock);
    // Then both actions resolve (3 + 1 + 1 = 5), and the supporter stays until the turn end,
    assert_eq!(t.hp(0), 5);
    t.end_janken();
    assert!(matches!(
        t.s().players[0].support,
        Support::Supporter { won: true, .. }
    ));
    t.end_turn();
    // where it is destroyed.
    assert_eq!(t.s().players[0].support, Support::Empty);
}

#[test]
fn example_5_damage_before_healing_and_the_second_defeat_loses() {
    // Given a character with HP 2 whose owner has 1 side card,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [2, 6],
    );
    // When it takes 3 damage and gets 2 HP back in one resolution,
    t.play(Move::Effect {
        player: 0,
        damage: 0,
        self_damage: 3,
        heal: 2,
        draw: 0,
        note: "both at once".into(),
    });
    // Then damage comes first: destroyed, the heal is void; the side card goes to hand.
    let p = &t.s().players[0];
    assert!(p.character.is_none());
    assert_eq!((p.defeated, p.side, p.hand), (1, 0, 4));
    assert_eq!(p.graveyard[0].card, "JK01");
    assert_eq!(t.m.outcome(), None);
    // When a second character is destroyed, Then that player loses.
    t.place(0, "JK03", 1);
    t.done();
    t.throw(Scissors, Rock); // Ben wins with グー: ATK 2.
    assert_eq!(t.s().players[0].defeated, 2);
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 1, .. })
    ));
    assert_eq!(t.s().table.step, Step::Over);
}

#[test]
fn example_6_clockwise_timeline() {
    // Given a Clockwise character placed in the set phase of turn 1,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK04", "JK01"],
        [6, 6],
    );
    // Then it is at 90°, and turns 90° at each later set phase: upright on turns 4 and 8.
    let mut seen = vec![t.rotation(0)];
    for _ in 2..=8 {
        t.turn(Rock, Rock);
        seen.push(t.rotation(0));
        if t.rotation(0) == Some(0) {
            assert!(
                t.m.context()
                    .prompts
                    .iter()
                    .any(|p| p.text.contains("upright")),
                "the upright notice is shown"
            );
        }
    }
    let seen: Vec<u16> = seen.into_iter().map(Option::unwrap).collect();
    assert_eq!(seen, vec![90, 180, 270, 0, 90, 180, 270, 0]);
}

#[test]
fn example_7a_bullet_counters_cap_and_clamp_on_awakening() {
    // Given a Bullet II character (鉄くず銃士, marked グー),
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK90"], &[]],
        ["JK06", "JK01"],
        [6, 6],
    );
    // When it throws グー on turns 1, 2, 3 and survives,
    let mut counters = Vec::new();
    for _ in 0..3 {
        t.done();
        t.throw(Rock, Rock);
        t.end_janken();
        counters.push(t.bullet(0));
        t.end_turn();
    }
    // Then the counters are 1, 2, 2,
    assert_eq!(counters, vec![1, 2, 2]);
    // and awakening into a Bullet I card clamps them to 1.
    t.play(Move::Awaken {
        player: 0,
        card: "JK90".into(),
    });
    assert_eq!(t.bullet(0), 1);
    t.roll(0, 6, 4);
    assert_eq!(t.hp(0), 4);
}

#[test]
fn example_7b_no_counter_while_replacing_and_none_carried_over() {
    // Given a Bullet character holding 1 counter,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK06", "JK01"],
        [6, 6],
    );
    t.turn(Rock, Rock);
    assert_eq!(t.bullet(0), 1);
    // When it declares replacement and throws its marked hand,
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    t.throw(Rock, Rock);
    t.end_janken();
    assert_eq!(t.bullet(0), 1, "no counter while replacing");
    // Then, swapped out at J1 for another Bullet character, the counters are not carried.
    t.play(Move::Replace {
        player: 0,
        card: "JK05".into(),
    });
    assert_eq!(t.bullet(0), 0);
}

#[test]
fn example_7c_no_counter_when_destroyed_in_the_same_janken_phase() {
    // Given a Bullet I character (弾丸ネズミ, marked チョキ) with HP 1 and a side card,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK05", "JK01"],
        [1, 6],
    );
    t.done();
    // When it throws チョキ and loses to グー (ATK 2),
    t.throw(Scissors, Rock);
    t.end_janken();
    // Then it is destroyed and nothing is gained (the counters are gone with it).
    assert!(t.s().players[0].character.is_none());
    assert_eq!(t.s().players[0].defeated, 1);
    assert_eq!(t.s().table.step, Step::TurnEnd);
}

#[test]
fn example_8_replacement_keeps_hp_and_deals_no_damage() {
    // Given a character with HP 3 that declares replacement,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [3, 6],
    );
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    // When it wins with an ATK hand (グー: ATK 2),
    t.throw(Rock, Scissors);
    // Then no damage is dealt,
    assert_eq!(t.hp(1), 6);
    t.end_janken();
    assert_eq!(t.s().table.step, Step::Replace);
    // and at J1 it is swapped with a hand card that keeps HP 3 (no roll).
    t.play(Move::Replace {
        player: 0,
        card: "JK03".into(),
    });
    let ch = t.s().players[0].character.as_ref().unwrap();
    assert_eq!((ch.stack.as_slice(), ch.hp), (&["JK03".to_owned()][..], 3));
    assert!(
        t.m.context()
            .prompts
            .iter()
            .all(|p| p.kind == PromptKind::Choice)
    );
    // The old card is back in hand.
    assert_eq!(t.s().players[0].hand, 3);
    assert_eq!(t.s().table.step, Step::TurnEnd);
}

#[test]
fn example_9_gear_removal_timing() {
    // Given a gear with durability 2 placed on turn 3,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.turn(Rock, Rock);
    t.turn(Rock, Rock);
    t.play(Move::PlaceGear {
        player: 0,
        card: "JK16".into(),
    });
    t.turn(Rock, Rock);
    let mut destroyed = Table { m: t.m.clone() };
    // When two printed events happen on turn 4,
    t.done();
    t.throw(Rock, Rock);
    t.play(Move::GearEvent { player: 0 });
    t.play(Move::GearEvent { player: 0 });
    // Then the die is 0 but the gear stays until the end of turn 4,
    assert_eq!(t.tracker(Some(0), "gear"), Some(0));
    t.end_janken();
    assert!(matches!(t.s().players[0].support, Support::Gear { .. }));
    t.end_turn();
    // then is removed from the game.
    assert_eq!(t.s().players[0].support, Support::Empty);
    assert_eq!(t.s().players[0].removed, vec!["JK16".to_owned()]);
    // If the character is destroyed on turn 4 instead, the gear is removed at once.
    destroyed.done();
    destroyed.play(Move::Effect {
        player: 1,
        damage: 6,
        self_damage: 0,
        heal: 0,
        draw: 0,
        note: "big hit".into(),
    });
    assert_eq!(destroyed.s().players[0].support, Support::Empty);
    assert!(
        destroyed.s().players[0]
            .removed
            .contains(&"JK16".to_owned())
    );
}

#[test]
fn example_10_awakening_eligibility_and_hp() {
    // Given a character placed on turn 1,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK18"], &[]],
        ["JK01", "JK01"],
        [2, 6],
    );
    t.turn(Rock, Rock);
    // When it tries to awaken on turn 2, Then it is refused (1 turn end so far),
    let v = t.refused(Move::Awaken {
        player: 0,
        card: "JK18".into(),
    });
    assert_eq!(rules_of(&v), ["junk-ken.awaken-turns"]);
    t.turn(Rock, Rock);
    // When it awakens on turn 3 and the HP die shows 5, Then HP = 5 whatever it was.
    t.play(Move::Awaken {
        player: 0,
        card: "JK18".into(),
    });
    t.roll(0, 6, 5);
    assert_eq!(t.hp(0), 5);
    assert_eq!(
        t.s().players[0].character.as_ref().unwrap().stack,
        vec!["JK01".to_owned(), "JK18".to_owned()]
    );
}

#[test]
fn example_11_draft_piles() {
    // Given 90 non-EX and 10 EX cards, When the piles are dealt,
    let piles = draft_piles(90, 10);
    // Then 18 piles: 10 of 6 cards and 8 of 5.
    assert_eq!(piles.len(), 18);
    assert_eq!(piles.iter().filter(|&&p| p == 6).count(), 10);
    assert_eq!(piles.iter().filter(|&&p| p == 5).count(), 8);
    // Only 6-card piles pass 40 after 7 picks (42); only 5-card piles after 9 (45).
    assert_eq!(picks_to_pass(&[6; 10]), Some((7, 42)));
    assert_eq!(picks_to_pass(&[5; 10]), Some((9, 45)));
}

// ---- FAQ answers ---------------------------------------------------------------------------

#[test]
fn faq_attack_plus_one_is_not_applied_on_ties_nor_to_draw_or_hp() {
    // Given tie damage 1 as a house rule and a +1 attack effect for Aki,
    let mut t = Table::started(
        serde_json::json!({"tie_damage": 1}),
        [&[], &[]],
        ["JK01", "JK01"],
        [5, 5],
    );
    t.m.commit(
        t.m.prepare(&Input::Adjust {
            tracker: TrackerId::player(0, "atk-bonus"),
            value: 1,
            reason: "ATK +1 effect".into(),
        })
        .unwrap(),
    );
    t.done();
    // When janken is a tie, Then each character takes exactly 1.
    t.throw(Rock, Rock);
    assert_eq!((t.hp(0), t.hp(1)), (4, 4));
    t.end_janken();
    t.end_turn();
    // When Aki wins with DRAW (チョキ: DRAW 1), Then exactly 1 card is drawn;
    t.done();
    let hand = t.s().players[0].hand;
    t.throw(Scissors, Paper);
    assert_eq!(t.s().players[0].hand, hand + 1);
    t.end_janken();
    t.end_turn();
    // When Aki wins with HP (パー: HP 1), Then exactly 1 HP comes back;
    t.done();
    t.throw(Paper, Rock);
    assert_eq!(t.hp(0), 5);
    t.end_janken();
    t.end_turn();
    // When Aki wins with ATK (グー: ATK 2), Then 2 + 1 = 3 damage.
    t.done();
    t.throw(Rock, Scissors);
    assert_eq!(t.hp(1), 1);
}

#[test]
fn faq_damage_wins_over_healing_in_the_janken_too() {
    // Given a character at HP 1 whose owner wins with paper-supporter healing on the other side,
    let mut t = Table::started(
        serde_json::json!({"tie_damage": 2}),
        [&[], &[]],
        ["JK01", "JK01"],
        [1, 6],
    );
    // When a tie deals 2 damage, Then it is destroyed before anything heals it.
    t.done();
    t.throw(Paper, Paper);
    assert!(t.s().players[0].character.is_none());
    assert_eq!(t.hp(1), 4);
}

#[test]
fn faq_clockwise_keeps_its_rotation_only_between_clockwise_cards() {
    // Given a Clockwise character (ゼンマイ時計, 《機械》) at 270° on turn 3,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK20"], &["JK91"]],
        ["JK04", "JK04"],
        [6, 6],
    );
    t.turn(Rock, Rock);
    t.turn(Rock, Rock);
    assert_eq!(t.rotation(0), Some(270));
    // When it awakens into a Clockwise card, Then the rotation is kept;
    t.play(Move::Awaken {
        player: 0,
        card: "JK20".into(),
    });
    assert_eq!(t.rotation(0), Some(270));
    // When the other awakens into a card without Clockwise, Then it has no rotation.
    t.play(Move::Awaken {
        player: 1,
        card: "JK91".into(),
    });
    assert_eq!(t.rotation(1), None);
}

#[test]
fn faq_clockwise_replacement_keeps_rotation() {
    // Given a Clockwise character at 180° declaring replacement,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK04", "JK01"],
        [6, 6],
    );
    t.turn(Rock, Rock);
    assert_eq!(t.rotation(0), Some(180));
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    t.throw(Rock, Rock);
    t.end_janken();
    // When it is replaced by a card without Clockwise, Then no rotation.
    let mut other = Table { m: t.m.clone() };
    other.play(Move::Replace {
        player: 0,
        card: "JK01".into(),
    });
    assert_eq!(other.rotation(0), None);
    // (Only one ゼンマイ時計 is in the deck: a Clockwise → Clockwise swap keeps the angle, which the
    // awakening test shows; here the replaced card returns to hand.)
    t.play(Move::KeepCharacter { player: 0 });
    assert_eq!(t.rotation(0), Some(180));
}

#[test]
fn faq_dice_rolling_skill_rolls_each_set_phase_and_may_be_skipped() {
    // Given サイコロ小僧 {1d6=6} in the battle zone,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK07", "JK01"],
        [6, 6],
    );
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    t.end_turn();
    // When the set phase begins, Then a d6 is asked for and the set phase waits for it.
    assert_eq!(t.s().table.step, Step::SetStart);
    assert!(
        t.m.context()
            .prompts
            .iter()
            .any(|p| p.kind == PromptKind::Die { sides: 6 })
    );
    // When a 6 is rolled, Then the skill is on until the next set phase.
    t.roll(0, 6, 6);
    assert_eq!(t.s().table.step, Step::Set);
    assert_eq!(t.tracker(Some(0), "dice-skill"), Some(1));
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    t.end_turn();
    // When next time a 3 is rolled, Then it is off again.
    assert_eq!(t.tracker(Some(0), "dice-skill"), Some(0));
    t.roll(0, 6, 3);
    assert_eq!(t.tracker(Some(0), "dice-skill"), Some(0));
    t.turn(Rock, Rock);
    // When no suitable die is at hand, Then the skill is skipped.
    t.play(Move::SkipDiceRoll { player: 0 });
    assert_eq!(t.s().table.step, Step::Set);
    assert_eq!(t.tracker(Some(0), "dice-skill"), Some(0));
}

#[test]
fn dice_rolling_with_two_dice_adds_them() {
    // Given 黒ネコ人形 {2d6>=10}, When 4 and 6 are rolled, Then the skill is on.
    let cat = catalogue();
    let main = [
        "JK14", "JK01", "JK03", "JK05", "JK06", "JK07", "JK08", "JK09", "JK12", "JK16",
    ];
    let h = header(
        serde_json::Value::Null,
        [cards(&main, &[]), cards(&MAIN, &[])],
    );
    let mut t = Table {
        m: Match::new(h, &cat).unwrap(),
    };
    t.place(0, "JK14", 6);
    t.place(1, "JK01", 6);
    t.turn(Rock, Rock);
    t.roll(0, 6, 4);
    assert_eq!(t.s().table.step, Step::SetStart);
    t.roll(0, 6, 6);
    assert_eq!(t.tracker(Some(0), "dice-skill"), Some(1));
}

#[test]
fn faq_necromancy_flips_and_is_lost_when_destroyed_or_replacing() {
    // Given 墓守人形 (Necromancy, marked パー) and a card in Ben's graveyard,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK09", "JK01"],
        [6, 2],
    );
    t.done();
    // When it wins with パー (ATK 2) and destroys Ben's character,
    t.throw(Paper, Rock);
    assert_eq!(t.s().players[1].graveyard.len(), 1);
    t.end_janken();
    // Then at the turn end it may turn that card face down.
    t.play(Move::Necromancy {
        player: 0,
        graveyard: 1,
        card: Some("JK01".into()),
    });
    assert!(t.s().players[1].graveyard[0].face_down);
    // It works once per trigger.
    let v = t.refused(Move::Necromancy {
        player: 0,
        graveyard: 1,
        card: None,
    });
    assert_eq!(rules_of(&v), ["junk-ken.necromancy-trigger"]);
    t.end_turn();
    // When it throws パー while replacing, Then Necromancy does not trigger.
    t.place(1, "JK03", 6);
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    t.throw(Paper, Paper);
    t.end_janken();
    t.play(Move::KeepCharacter { player: 0 });
    assert!(!t.s().players[0].necromancy_ready);
}

#[test]
fn necromancy_picks_a_face_down_card_with_a_die() {
    // Given two supporters of Ben's expired into the graveyard and turned face down,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK09", "JK01"],
        [6, 6],
    );
    for (i, c) in ["JK05", "JK06"].iter().enumerate() {
        t.play(Move::PlaceSupporter {
            player: 1,
            card: (*c).into(),
        });
        t.done();
        t.throw(Rock, Rock);
        t.end_janken();
        t.end_turn();
        t.done();
        t.throw(Rock, Rock);
        t.end_janken();
        assert_eq!(t.s().players[1].graveyard.len(), i + 1);
        t.end_turn();
    }
    for c in ["JK05", "JK06"] {
        t.done();
        t.throw(Paper, Rock); // パー wins: ATK 2 to Ben (HP 6 → …)
        t.end_janken();
        t.play(Move::Necromancy {
            player: 0,
            graveyard: 1,
            card: Some(c.into()),
        });
        t.end_turn();
    }
    t.done();
    t.throw(Paper, Scissors); // Ben wins with チョキ: DRAW 1; Aki threw パー but lost.
    t.end_janken();
    // Aki threw the marked hand and survived: Necromancy is ready although Aki lost.
    t.play(Move::Necromancy {
        player: 0,
        graveyard: 1,
        card: None,
    });
    // When two face-down cards are there, Then a d2 picks one.
    t.roll(0, 2, 2);
    let g = &t.s().players[1].graveyard;
    assert_eq!((g[0].face_down, g[1].face_down), (true, false));
}

// ---- skill icons ----------------------------------------------------------------------------

#[test]
fn bullet_levels_cap_the_counters() {
    // Given Bullet I (弾丸ネズミ) and Bullet III (鉄くず銃士・改 on 鉄くず銃士),
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK19"], &[]],
        ["JK06", "JK05"],
        [6, 6],
    );
    t.turn(Rock, Scissors); // both marked hands; Aki wins with グー: ATK 2 to the mouse.
    t.turn(Rock, Scissors);
    assert_eq!(t.bullet(0), 2);
    assert_eq!(t.bullet(1), 1, "Bullet I holds 1");
    t.play(Move::Awaken {
        player: 0,
        card: "JK19".into(),
    });
    t.roll(0, 6, 6);
    for _ in 0..2 {
        t.done();
        t.throw(Scissors, Rock);
        t.end_janken();
        t.end_turn();
    }
    assert_eq!(t.bullet(0), 3, "Bullet III holds 3");
    t.done();
    t.throw(Scissors, Rock);
    t.end_janken();
    // Spending removes the printed cost (2); spending more than held is refused.
    t.play(Move::SpendBullet { player: 0 });
    assert_eq!(t.bullet(0), 1);
    let v = t.refused(Move::SpendBullet { player: 0 });
    assert_eq!(rules_of(&v), ["junk-ken.bullet-counters"]);
}

#[test]
fn haste_turns_the_supporter_up_for_plus_one_and_destroys_it_at_turn_end() {
    // Given 早足ラジオ (Haste) as character and a チョキ supporter (ブリキ… none: 弾丸ネズミ, ATK 1),
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK08", "JK01"],
        [6, 6],
    );
    t.play(Move::PlaceSupporter {
        player: 0,
        card: "JK05".into(),
    });
    // When Haste is used,
    t.play(Move::Haste { player: 0 });
    t.done();
    // and Aki wins with チョキ (character DRAW 2; supporter ATK 1 + 1),
    t.throw(Scissors, Paper);
    // Then the supporter deals 2, and it is destroyed at the turn end.
    assert_eq!(t.hp(1), 4);
    t.end_janken();
    t.end_turn();
    assert_eq!(t.s().players[0].support, Support::Empty);
}

#[test]
fn haste_card_as_supporter_behaves_the_same_and_never_for_gear() {
    // Given 早足ラジオ itself face down as the supporter,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.play(Move::PlaceSupporter {
        player: 0,
        card: "JK08".into(),
    });
    // When Haste is used, Then it is accepted.
    t.play(Move::Haste { player: 0 });
    // Given a gear and no Haste on the character, Then Haste is refused.
    t.play(Move::PlaceGear {
        player: 1,
        card: "JK16".into(),
    });
    assert_eq!(
        rules_of(&t.refused(Move::Haste { player: 1 })),
        ["junk-ken.haste-gear"]
    );
}

#[test]
fn limited_cards_once_per_deck() {
    // Given two copies of a Limited card, When the deck is checked, Then it is refused.
    let cat = catalogue();
    let main = [
        "JK10", "JK10", "JK01", "JK03", "JK05", "JK12", "JK12", "JK12", "JK13", "JK16",
    ];
    let v = check_deck(&deck_of(&main, &[], None), &cat);
    assert!(rules_of(&v).contains(&"junk-ken.limited"));
}

// ---- refusals -------------------------------------------------------------------------------

#[test]
fn refusals_of_the_set_phase() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK22", "JK18"], &["JK24"]],
        ["JK01", "JK01"],
        [6, 6],
    );
    // A second character while one is there.
    assert_eq!(
        rules_of(&t.refused(Move::PlaceCharacter {
            player: 0,
            card: "JK03".into()
        })),
        ["junk-ken.battle-zone-occupied"]
    );
    // A second support card, and any card over a gear.
    t.play(Move::PlaceGear {
        player: 0,
        card: "JK16".into(),
    });
    assert_eq!(
        rules_of(&t.refused(Move::PlaceSupporter {
            player: 0,
            card: "JK03".into()
        })),
        ["junk-ken.support-zone-occupied"]
    );
}

#[test]
fn refusal_field_zone_occupied_and_always_on() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK22", "JK23"], &["JK24"]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.play(Move::PlaceField {
        player: 0,
        card: "JK22".into(),
    });
    assert_eq!(
        rules_of(&t.refused(Move::PlaceField {
            player: 0,
            card: "JK23".into()
        })),
        ["junk-ken.field-zone-occupied"]
    );
    t.play(Move::PlaceField {
        player: 1,
        card: "JK24".into(),
    });
    assert_eq!(
        rules_of(&t.refused(Move::SpendField { player: 1 })),
        ["junk-ken.field-always-on"]
    );
}

#[test]
fn refusal_awaken_target_and_phase() {
    let mut t = Table::started(
        serde_json::json!({"awaken_turns": 0}),
        [&["JK19"], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    assert_eq!(
        rules_of(&t.refused(Move::Awaken {
            player: 0,
            card: "JK19".into()
        })),
        ["junk-ken.awaken-target"]
    );
    t.done();
    assert_eq!(
        rules_of(&t.refused(Move::PlaceSupporter {
            player: 0,
            card: "JK03".into()
        })),
        ["junk-ken.phase"]
    );
}

#[test]
fn refusal_must_place() {
    let mut t = Table::new();
    assert_eq!(
        rules_of(&t.refused(Move::EndSet { player: 0 })),
        ["junk-ken.must-place"]
    );
}

#[test]
fn refusal_awakened_character_may_not_replace() {
    let mut t = Table::started(
        serde_json::json!({"awaken_turns": 0}),
        [&["JK18"], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.play(Move::Awaken {
        player: 0,
        card: "JK18".into(),
    });
    t.roll(0, 6, 3);
    t.done();
    assert_eq!(
        rules_of(&t.refused(Move::DeclareReplacement { player: 0 })),
        ["junk-ken.awakened-replacement"]
    );
}

#[test]
fn refusal_effects_while_replacing() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    let v = t.refused(Move::Effect {
        player: 0,
        damage: 1,
        self_damage: 0,
        heal: 0,
        draw: 0,
        note: String::new(),
    });
    assert_eq!(rules_of(&v), ["junk-ken.replacement-suppresses"]);
}

#[test]
fn refusal_bullet_outside_the_turn_end_and_surrender_outside_the_draft() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK05", "JK01"],
        [6, 6],
    );
    let v = t.refused(Move::SpendBullet { player: 0 });
    assert!(rules_of(&v).contains(&"junk-ken.phase"));
    assert!(rules_of(&v).contains(&"junk-ken.bullet-counters"));
    assert_eq!(
        rules_of(&t.refused(Move::Surrender { player: 0 })),
        ["junk-ken.surrender"]
    );
}

#[test]
fn an_overridden_move_is_applied() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.override_play(Move::PlaceCharacter {
        player: 0,
        card: "JK03".into(),
    });
    assert_eq!(
        t.s().players[0].character.as_ref().unwrap().stack,
        vec!["JK03".to_owned()]
    );
    assert_eq!(t.s().players[0].graveyard[0].card, "JK01");
}

#[test]
fn simultaneous_last_defeats_are_a_draw() {
    // Given both players on their last character with HP 1 and tie damage 1,
    let mut t = Table::started(
        serde_json::json!({"tie_damage": 1}),
        [&[], &[]],
        ["JK01", "JK01"],
        [1, 1],
    );
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    t.end_turn();
    t.place(0, "JK03", 1);
    t.place(1, "JK03", 1);
    t.done();
    // When a tie destroys both, Then it is a draw.
    t.throw(Rock, Rock);
    assert!(matches!(t.m.outcome(), Some(Outcome::Draw { .. })));
}

// ---- house rules ----------------------------------------------------------------------------

#[test]
fn house_rule_draft_two_sides_third_defeat_and_surrender() {
    let cat = catalogue();
    let mut main: Vec<&str> = Vec::new();
    for _ in 0..3 {
        main.extend([
            "JK01", "JK03", "JK04", "JK05", "JK06", "JK07", "JK08", "JK09", "JK12", "JK16",
        ]);
    }
    let h = header(
        serde_json::json!({"draft": true}),
        [cards(&main, &[]), cards(&main, &[])],
    );
    let mut t = Table {
        m: Match::new(h, &cat).unwrap(),
    };
    // Then hand 4, side 2, deck 24.
    assert_eq!(
        (
            t.s().players[0].hand,
            t.s().players[0].side,
            t.s().players[0].deck
        ),
        (4, 2, 24)
    );
    t.place(0, "JK01", 1);
    t.place(1, "JK01", 6);
    for c in ["JK03", "JK04"] {
        t.play(Move::Effect {
            player: 1,
            damage: 9,
            self_damage: 0,
            heal: 0,
            draw: 0,
            note: String::new(),
        });
        assert!(t.m.outcome().is_none());
        t.place(0, c, 1);
    }
    t.play(Move::Effect {
        player: 1,
        damage: 9,
        self_damage: 0,
        heal: 0,
        draw: 0,
        note: String::new(),
    });
    assert!(
        matches!(t.m.outcome(), Some(Outcome::Win { winner: 1, .. })),
        "3rd defeat loses"
    );
    // Surrender: allowed once deck, side and hand are gone.
    let h = header(
        serde_json::json!({"draft": true}),
        [cards(&main, &[]), cards(&main, &[])],
    );
    let mut t = Table {
        m: Match::new(h, &cat).unwrap(),
    };
    for (name, v) in [("deck", 0), ("side", 0), ("hand", 0)] {
        t.m.commit(
            t.m.prepare(&Input::Adjust {
                tracker: TrackerId::named(Some(0), name),
                value: v,
                reason: "test".into(),
            })
            .unwrap(),
        );
    }
    t.play(Move::Surrender { player: 0 });
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 1, .. })
    ));
}

#[test]
fn house_rule_check_decks_off_allows_any_deck() {
    let cat = catalogue();
    let h = header(
        serde_json::json!({"check_decks": false}),
        [cards(&["JK10", "JK10"], &[]), cards(&MAIN, &[])],
    );
    let m = Match::<JunkKen>::new(h, &cat).unwrap();
    assert_eq!(
        (
            m.state().players[0].hand,
            m.state().players[0].side,
            m.state().players[0].deck
        ),
        (2, 0, 0)
    );
}

#[test]
fn house_rule_rethrow_ties() {
    let mut t = Table::started(
        serde_json::json!({"rethrow_ties": true, "tie_damage": 3}),
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.done();
    t.throw(Rock, Rock);
    assert_eq!(t.s().table.step, Step::Janken);
    assert_eq!((t.hp(0), t.hp(1)), (6, 6));
    t.throw(Rock, Scissors);
    assert_eq!(t.hp(1), 4);
}

#[test]
fn house_rule_must_place_off() {
    let mut t = Table::with(serde_json::json!({"must_place": false}), [&[], &[]]);
    t.play(Move::EndSet { player: 0 });
}

#[test]
fn house_rule_hp_cap() {
    // Default: healing stops at 6.
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.play(Move::Effect {
        player: 0,
        damage: 0,
        self_damage: 0,
        heal: 3,
        draw: 0,
        note: String::new(),
    });
    assert_eq!(t.hp(0), 6);
    let mut t = Table::started(
        serde_json::json!({"hp_cap": false}),
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.play(Move::Effect {
        player: 0,
        damage: 0,
        self_damage: 0,
        heal: 3,
        draw: 0,
        note: String::new(),
    });
    assert_eq!(t.hp(0), 9);
}

#[test]
fn house_rule_supporter_replaces_the_action() {
    // ネジ丸 wins with グー (ATK 2) over a グー supporter (鉄くず銃士: ATK 2).
    for (rules, hp) in [
        (serde_json::Value::Null, 2),
        (serde_json::json!({"supporter_adds": false}), 4),
    ] {
        let mut t = Table::started(rules, [&[], &[]], ["JK01", "JK01"], [6, 6]);
        t.play(Move::PlaceSupporter {
            player: 0,
            card: "JK06".into(),
        });
        t.done();
        t.throw(Rock, Scissors);
        assert_eq!(t.hp(1), hp);
    }
}

#[test]
fn house_rule_awaken_turns() {
    let mut t = Table::started(
        serde_json::json!({"awaken_turns": 1}),
        [&["JK18"], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.turn(Rock, Rock);
    t.play(Move::Awaken {
        player: 0,
        card: "JK18".into(),
    });
}

#[test]
fn house_rule_bullet_on_replacement_and_any_time() {
    let mut t = Table::started(
        serde_json::json!({"bullet_on_replacement": true, "bullet_any_time": true}),
        [&[], &[]],
        ["JK06", "JK01"],
        [6, 6],
    );
    t.turn(Rock, Rock);
    t.turn(Rock, Rock);
    assert_eq!(t.bullet(0), 2);
    t.play(Move::SpendBullet { player: 0 }); // set phase: allowed by the house rule
    assert_eq!(t.bullet(0), 0);
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    t.end_turn();
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    t.throw(Scissors, Rock);
    t.end_janken();
    t.play(Move::Replace {
        player: 0,
        card: "JK05".into(),
    });
    assert_eq!(t.bullet(0), 1, "carried over, clamped to Bullet I");
}

#[test]
fn house_rule_field_duel_destination() {
    for (rules, removed) in [
        (serde_json::Value::Null, true),
        (serde_json::json!({"field_duel_removes": false}), false),
    ] {
        let mut t = Table::started(rules, [&["JK22"], &["JK23"]], ["JK01", "JK01"], [6, 6]);
        t.play(Move::PlaceField {
            player: 0,
            card: "JK22".into(),
        }); // rock
        // Both placed the same turn: no destruction.
        let mut same = Table { m: t.m.clone() };
        same.play(Move::PlaceField {
            player: 1,
            card: "JK23".into(),
        });
        assert!(same.s().players[0].field.is_some());
        t.turn(Rock, Rock);
        t.play(Move::PlaceField {
            player: 1,
            card: "JK23".into(),
        }); // paper beats rock
        assert!(t.s().players[0].field.is_none());
        assert_eq!(
            t.s().players[0].removed.contains(&"JK22".to_owned()),
            removed
        );
        assert_eq!(
            t.s().players[0].graveyard.iter().any(|g| g.card == "JK22"),
            !removed
        );
    }
}

#[test]
fn house_rule_replaced_card_to_graveyard_and_draw_hp_while_replacing() {
    let mut t = Table::started(
        serde_json::json!({"replaced_to_hand": false, "replacement_keeps_draw_hp": false}),
        [&[], &[]],
        ["JK01", "JK01"],
        [3, 6],
    );
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    t.throw(Paper, Rock); // HP 1 suppressed by the house rule
    assert_eq!(t.hp(0), 3);
    t.end_janken();
    t.play(Move::Replace {
        player: 0,
        card: "JK03".into(),
    });
    assert_eq!(t.s().players[0].graveyard[0].card, "JK01");
    // Default: the HP action works while replacing.
    let mut d = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [3, 6],
    );
    d.done();
    d.play(Move::DeclareReplacement { player: 0 });
    d.throw(Paper, Rock);
    assert_eq!(d.hp(0), 4);
}

#[test]
fn house_rule_haste_any_time() {
    let mut t = Table::started(
        serde_json::json!({"haste_any_time": true}),
        [&[], &[]],
        ["JK08", "JK01"],
        [6, 6],
    );
    t.play(Move::PlaceSupporter {
        player: 0,
        card: "JK05".into(),
    });
    t.done();
    t.play(Move::Haste { player: 0 });
    let mut d = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK08", "JK01"],
        [6, 6],
    );
    d.play(Move::PlaceSupporter {
        player: 0,
        card: "JK05".into(),
    });
    d.done();
    assert_eq!(
        rules_of(&d.refused(Move::Haste { player: 0 })),
        ["junk-ken.phase"]
    );
}

#[test]
fn unknown_house_rule_is_refused() {
    let cat = catalogue();
    let h = header(
        serde_json::json!({"tie_dmg": 1}),
        [cards(&MAIN, &[]), cards(&MAIN, &[])],
    );
    let e = Match::<JunkKen>::new(h, &cat).unwrap_err();
    assert!(e.to_string().contains("tie_dmg"), "{e}");
}

#[test]
fn replay_of_a_scenario_equals_the_live_state() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK18"], &[]],
        ["JK01", "JK04"],
        [3, 4],
    );
    t.turn(Rock, Scissors);
    t.turn(Paper, Rock);
    let inputs: Vec<_> = t.m.entries().iter().map(|e| e.input.clone()).collect();
    let r = Match::<JunkKen>::replay(t.m.header().clone(), &catalogue(), inputs).unwrap();
    assert_eq!(r.state(), t.s());
}

#[test]
fn the_documented_demo_script_plays_a_whole_match() {
    use cards::script::{Script, run_step};
    let text = include_str!("../../docs/examples/junk_ken-demo.script");
    let script = Script::parse(text).unwrap();
    let cat = Catalogue::builtin(GameId::JunkKen).unwrap();
    let mut m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    for (line, step) in &script.steps {
        run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(
        matches!(m.outcome(), Some(Outcome::Win { winner: 0, .. })),
        "{:?}",
        m.outcome()
    );
    let log = m.log();
    assert!(log.iter().any(|l| !l.overridden.is_empty()));
}

#[test]
fn faq_necromancy_does_not_trigger_when_the_character_is_destroyed() {
    // Given 墓守人形 with HP 1 and tie damage 1,
    let mut t = Table::started(
        serde_json::json!({"tie_damage": 1}),
        [&[], &[]],
        ["JK09", "JK01"],
        [1, 6],
    );
    t.done();
    // When it throws its marked パー and is destroyed by the tie,
    t.throw(Paper, Paper);
    t.end_janken();
    // Then Necromancy is not readied at the turn end.
    assert_eq!(t.s().table.step, Step::TurnEnd);
    assert!(!t.s().players[0].necromancy_ready);
}

#[test]
fn faq_clockwise_to_clockwise_replacement_keeps_the_angle() {
    // Given two ゼンマイ時計 in Aki's deck and one at 180° declaring replacement,
    let cat = catalogue();
    let main = [
        "JK01", "JK03", "JK04", "JK04", "JK05", "JK06", "JK07", "JK08", "JK09", "JK16",
    ];
    let h = header(
        serde_json::Value::Null,
        [cards(&main, &[]), cards(&MAIN, &[])],
    );
    let mut t = Table {
        m: Match::new(h, &cat).unwrap(),
    };
    t.place(0, "JK04", 6);
    t.place(1, "JK01", 6);
    t.turn(Rock, Rock);
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    t.throw(Rock, Rock);
    t.end_janken();
    // When it is swapped for the other Clockwise card, Then the angle is kept.
    t.play(Move::Replace {
        player: 0,
        card: "JK04".into(),
    });
    assert_eq!(t.rotation(0), Some(180));
}

// ---- refusals that are rules (issue 17) -------------------------------------------------------

#[test]
fn stacked_haste_is_a_rule_naming_the_face_up_supporter() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK08", "JK01"],
        [6, 6],
    );
    t.play(Move::PlaceSupporter {
        player: 0,
        card: "JK05".into(),
    });
    t.play(Move::Haste { player: 0 });
    let v = t.refused(Move::Haste { player: 0 });
    assert_eq!(rules_of(&v), ["junk-ken.haste-stack"]);
    assert!(
        v[0].sentence.contains("Aki's supporter is already face up"),
        "{}",
        v[0].sentence
    );
    assert!(
        v[0].sentence_ja.contains("重複しません"),
        "{}",
        v[0].sentence_ja
    );
    assert!(
        v[0].reference.contains("■ヘイストスキル"),
        "{}",
        v[0].reference
    );
}

#[test]
fn necromancy_after_the_character_was_destroyed_says_so() {
    // Given Aki's 墓守人形 (Necromancy) with HP 1, destroyed by Ben's グー (ATK 2),
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK09", "JK01"],
        [1, 6],
    );
    t.done();
    t.throw(Scissors, Rock);
    assert!(t.s().players[0].character.is_none());
    t.end_janken();
    // when Aki still names a card for Necromancy, the refusal says the character was destroyed
    // (not that it "has no Necromancy skill"),
    let v = t.refused(Move::Necromancy {
        player: 0,
        graveyard: 0,
        card: Some("JK09".into()),
    });
    assert_eq!(rules_of(&v), ["junk-ken.necromancy-destroyed"]);
    assert!(v[0].sentence.contains("destroyed"), "{}", v[0].sentence);
    assert!(v[0].sentence_ja.contains("破壊"), "{}", v[0].sentence_ja);
    // and the table may apply it anyway.
    t.override_play(Move::Necromancy {
        player: 0,
        graveyard: 0,
        card: Some("JK09".into()),
    });
    assert!(t.s().players[0].graveyard.iter().any(|c| c.face_down));
}

#[test]
fn naming_a_face_down_card_for_necromancy_is_a_rule() {
    // Given Ben's supporter expired into the graveyard and turned face down by Necromancy,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK09", "JK01"],
        [6, 6],
    );
    t.play(Move::PlaceSupporter {
        player: 1,
        card: "JK05".into(),
    });
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    t.end_turn();
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    t.end_turn();
    t.done();
    t.throw(Paper, Rock);
    t.end_janken();
    t.play(Move::Necromancy {
        player: 0,
        graveyard: 1,
        card: Some("JK05".into()),
    });
    t.end_turn();
    t.done();
    t.throw(Paper, Rock);
    t.end_janken();
    // When Aki names the face-down card, Then the refusal says a face-down card has no name.
    let v = t.refused(Move::Necromancy {
        player: 0,
        graveyard: 1,
        card: Some("JK05".into()),
    });
    assert_eq!(rules_of(&v), ["junk-ken.necromancy-face-down"]);
    assert!(v[0].sentence.contains("face down"), "{}", v[0].sentence);
    assert!(v[0].reference.contains("ランダム"), "{}", v[0].reference);
}

#[test]
fn replacing_a_destroyed_character_is_a_rule() {
    // Given Aki (HP 1) declared replacement and Ben's グー destroyed the character,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [1, 6],
    );
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    t.throw(Scissors, Rock);
    assert!(t.s().players[0].character.is_none());
    t.end_janken();
    // When Aki swaps in a hand card anyway, Then it is refused for that cause,
    let v = t.refused(Move::Replace {
        player: 0,
        card: "JK03".into(),
    });
    assert_eq!(rules_of(&v), ["junk-ken.replace-destroyed"]);
    assert!(v[0].sentence.contains("was destroyed"), "{}", v[0].sentence);
    assert!(!v[0].sentence_ja.is_empty());
    // and applied anyway the card goes to the battle zone with its HP die asked.
    t.override_play(Move::Replace {
        player: 0,
        card: "JK03".into(),
    });
    assert!(t.s().players[0].character.is_some());
}

#[test]
fn a_dice_rolling_skill_whose_die_is_not_at_the_table_is_skipped_and_logged() {
    // Given サイコロ小僧 {1d6=6} and a table that has only a d8,
    let mut t = Table::started(
        serde_json::json!({"table_dice": "8"}),
        [&[], &[]],
        ["JK07", "JK01"],
        [6, 6],
    );
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    t.end_turn();
    // When the set phase begins, Then no die is asked for and the set phase is open at once,
    assert_eq!(t.s().table.step, Step::Set);
    assert!(
        t.m.context()
            .prompts
            .iter()
            .all(|p| !matches!(p.kind, PromptKind::Die { .. }))
    );
    assert_eq!(t.tracker(Some(0), "dice-skill"), Some(0));
    // and the log says the skill was skipped for want of the die.
    let last = t.m.entry_text(t.m.entries().len() - 1);
    assert!(last.contains("no d6 at the table"), "{last}");
    // A d6 typed anyway is a free roll: it answers no prompt.
    let p =
        t.m.prepare(&Input::Roll {
            roll: Roll {
                sides: 6,
                value: 6,
                source: DieSource::Typed,
                seat: Some(0),
                throw: None,
            },
        })
        .unwrap();
    assert_eq!(p.effect(), &cards::matches::EntryEffect::FreeRoll);
}

#[test]
fn the_table_dice_setting_is_read_strictly() {
    let cat = catalogue();
    for bad in [
        serde_json::json!({"table_dice": "d6 x"}),
        serde_json::json!({"table_dice": 0}),
    ] {
        let h = header(bad, [cards(&MAIN, &[]), cards(&MAIN, &[])]);
        let e = Match::<JunkKen>::new(h, &cat).unwrap_err().to_string();
        assert!(e.contains("table_dice"), "{e}");
    }
}

#[test]
fn a_bonus_from_a_gear_ends_when_the_gear_leaves_play() {
    // Given Aki's gear バネ足 giving +1 attack (entered with its source),
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.play(Move::PlaceGear {
        player: 0,
        card: "JK16".into(),
    });
    t.play(Move::Bonus {
        player: 0,
        card: "JK16".into(),
        atk: 1,
    });
    assert_eq!(t.tracker(Some(0), "atk-bonus"), Some(1));
    // When Aki wins with グー (ATK 2), Then it deals 3,
    t.done();
    t.throw(Rock, Scissors);
    assert_eq!(t.hp(1), 3);
    // and when the gear's die runs out and it is removed at the turn end,
    t.play(Move::GearEvent { player: 0 });
    t.play(Move::GearEvent { player: 0 });
    t.end_janken();
    t.end_turn();
    assert_eq!(t.s().players[0].support, Support::Empty);
    // Then the bonus is gone with it: the next グー deals 2.
    assert_eq!(t.tracker(Some(0), "atk-bonus"), Some(0));
    t.done();
    t.throw(Rock, Scissors);
    assert_eq!(t.hp(1), 1);
    // A card not in play gives no bonus.
    assert!(matches!(
        t.try_play(Move::Bonus {
            player: 0,
            card: "JK16".into(),
            atk: 1,
        }),
        Err(Rejection::Impossible(_))
    ));
}

fn place_supporter(t: &mut Table, player: usize, card: &str) {
    t.play(Move::PlaceSupporter {
        player,
        card: card.into(),
    });
}

#[test]
fn refusal_phase_names_the_move_and_both_steps() {
    // Given both characters placed and the set phase over (the janken phase),
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.done();
    // placing a supporter now belongs to the set phase,
    t.refused_then_overridden(
        Move::PlaceSupporter {
            player: 0,
            card: "JK03".into(),
        },
        "junk-ken.phase",
        &["Placing a supporter", "the set phase (S1)", "turn 1 J0"],
        &[
            "サポーターの配置はセットフェーズ中に行います",
            "ターン1：じゃんけんフェーズ",
        ],
    );
    // and a gear's timing quotes the seed's gear sentence.
    let v = t.refused(Move::PlaceGear {
        player: 1,
        card: "JK16".into(),
    });
    assert!(
        v[0].reference
            .contains("セットフェーズ中にサポートゾーンに空きがあれば"),
        "{v:?}"
    );
}

#[test]
fn refusal_zones_occupied_name_the_player_and_the_card() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK22", "JK24"], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.refused_then_overridden(
        Move::PlaceCharacter {
            player: 0,
            card: "JK03".into(),
        },
        "junk-ken.battle-zone-occupied",
        &["Aki's battle zone already holds a character"],
        &["Aki のバトルゾーンにはすでにキャラクターがいます"],
    );
    t.roll(0, 6, 4);
    t.play(Move::PlaceGear {
        player: 0,
        card: "JK16".into(),
    });
    t.refused_then_overridden(
        Move::PlaceSupporter {
            player: 0,
            card: "JK04".into(),
        },
        "junk-ken.support-zone-occupied",
        &["Aki's support zone holds a gear"],
        &["Aki のサポートゾーンにはギアがあります"],
    );
    t.play(Move::PlaceField {
        player: 0,
        card: "JK22".into(),
    });
    t.refused_then_overridden(
        Move::PlaceField {
            player: 0,
            card: "JK24".into(),
        },
        "junk-ken.field-zone-occupied",
        &["Aki's field zone already holds ガラクタ山 (Junk Heap)"],
        &["Aki のフィールドゾーンにはすでに ガラクタ山"],
    );
    // 火花工場 (spend 0) is always on: lowering its die is refused naming it.
    t.refused_then_overridden(
        Move::SpendField { player: 0 },
        "junk-ken.field-always-on",
        &["Aki's field 火花工場 (Spark Works)", "always on"],
        &["Aki のフィールド 火花工場 の効果は場にある間つねに有効"],
    );
}

#[test]
fn refusal_wrong_kind_of_card_for_the_zone_names_the_card_and_its_kind() {
    // Given the first set phase,
    let mut t = Table::new();
    // a gear put in the battle zone is not a character,
    t.refused_then_overridden(
        Move::PlaceCharacter {
            player: 0,
            card: "JK16".into(),
        },
        "junk-ken.character-kind",
        &["Aki puts バネ足 (Spring Legs), a gear card, in the battle zone"],
        &["Aki がバトルゾーンに置いた バネ足 はギアカード"],
    );
    // and a character placed as a gear is not a gear (overridden it is a supporter).
    t.refused_then_overridden(
        Move::PlaceGear {
            player: 1,
            card: "JK03".into(),
        },
        "junk-ken.gear-kind",
        &["Ben places 空き缶 (Empty Can), a character card, as a gear"],
        &["Ben がギアとして置いた 空き缶 はキャラクターカード"],
    );
    assert!(matches!(
        t.s().players[1].support,
        Support::Supporter { .. }
    ));
}

#[test]
fn refusal_awakening_names_the_player_the_cards_and_the_turns() {
    // Given Aki's 空き缶 placed this turn and 大ネジ丸 (awakens 【ネジ丸】) in the extra deck,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK18"], &[]],
        ["JK03", "JK01"],
        [6, 6],
    );
    let mv = Move::Awaken {
        player: 0,
        card: "JK18".into(),
    };
    let v = t.refused(mv.clone());
    assert_eq!(
        rules_of(&v),
        ["junk-ken.awaken-target", "junk-ken.awaken-turns"]
    );
    t.refused_then_overridden(
        mv.clone(),
        "junk-ken.awaken-target",
        &[
            "大ネジ丸 (Great Screw-Maru) awakens 【ネジ丸】",
            "空き缶 (Empty Can)",
        ],
        &["大ネジ丸 が覚醒させるのは 【ネジ丸】", "空き缶"],
    );
    let mut t = Table::started(
        serde_json::Value::Null,
        [&["JK18"], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.refused_then_overridden(
        mv,
        "junk-ken.awaken-turns",
        &[
            "after 2 turns in a row",
            "Aki's ネジ丸 (Screw-Maru) has been there 0 turn(s)",
        ],
        &["連続して2ターン以上", "Aki の ネジ丸 は0ターン"],
    );
}

#[test]
fn refusal_haste_names_the_player_and_the_cards() {
    // Given Aki's ネジ丸 (no Haste) with 空き缶 (no Haste) face down as supporter,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK08"],
        [6, 6],
    );
    place_supporter(&mut t, 0, "JK03");
    t.refused_then_overridden(
        Move::Haste { player: 0 },
        "junk-ken.haste-icon",
        &[
            "Aki's character",
            "the character ネジ丸 (Screw-Maru) has none, nor has the supporter",
        ],
        &[
            "Aki のキャラクター",
            "キャラクター ネジ丸 にもサポーターにもありません",
        ],
    );
    // Aki's supporter is face up now: Haste again does not stack.
    t.refused_then_overridden(
        Move::Haste { player: 0 },
        "junk-ken.haste-stack",
        &["Aki's supporter is already face up"],
        &["Aki のサポーターはすでに表向き"],
    );
    // Ben's 早足ラジオ has Haste, but his support zone holds a gear.
    t.play(Move::PlaceGear {
        player: 1,
        card: "JK16".into(),
    });
    t.refused_then_overridden(
        Move::Haste { player: 1 },
        "junk-ken.haste-gear",
        &["Ben's support zone holds the gear バネ足 (Spring Legs)"],
        &["Ben のサポートゾーンにあるのはギアカード バネ足"],
    );
}

#[test]
fn refusal_must_place_names_the_player_and_the_hand() {
    let mut t = Table::new();
    t.refused_then_overridden(
        Move::EndSet { player: 0 },
        "junk-ken.must-place",
        &["Aki's battle zone is empty", "holds 4 card(s)"],
        &["Aki のバトルゾーンは空", "手札が4枚"],
    );
}

#[test]
fn refusal_replacement_rules_name_the_player_and_the_card() {
    // Given Aki's 大ネジ丸 awakened over ネジ丸,
    let mut t = Table::started(
        serde_json::json!({"awaken_turns": 0}),
        [&["JK18"], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    // swapping it in the set phase, with no replacement declared, is out of turn;
    t.refused_then_overridden(
        Move::Replace {
            player: 1,
            card: "JK03".into(),
        },
        "junk-ken.replace-timing",
        &["Ben declared no replacement this turn"],
        &["Ben はこのターン交代を宣言していません"],
    );
    assert_eq!(t.s().players[1].character.as_ref().unwrap().top(), "JK03");
    t.play(Move::Awaken {
        player: 0,
        card: "JK18".into(),
    });
    t.roll(0, 6, 3);
    t.done();
    t.refused_then_overridden(
        Move::DeclareReplacement { player: 0 },
        "junk-ken.awakened-replacement",
        &["Aki's character 大ネジ丸 (Great Screw-Maru) is awakened"],
        &["Aki のキャラクター 大ネジ丸 は覚醒しています"],
    );
    // With replacement declared, Aki's effects are suppressed after the throw.
    t.throw(Paper, Paper);
    t.refused_then_overridden(
        Move::Effect {
            player: 0,
            damage: 1,
            self_damage: 0,
            heal: 0,
            draw: 0,
            note: String::new(),
        },
        "junk-ken.replacement-suppresses",
        &["Aki declared replacement"],
        &["Aki は交代を宣言しました"],
    );
}

#[test]
fn refusal_replace_destroyed_names_the_player() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [1, 6],
    );
    t.done();
    t.play(Move::DeclareReplacement { player: 0 });
    t.throw(Scissors, Rock);
    t.end_janken();
    t.refused_then_overridden(
        Move::Replace {
            player: 0,
            card: "JK03".into(),
        },
        "junk-ken.replace-destroyed",
        &["Aki's character was destroyed"],
        &["Aki のキャラクターは破壊されました"],
    );
}

#[test]
fn refusal_janken_before_the_set_phase_ends_names_who_is_not_done() {
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK01"],
        [6, 6],
    );
    t.play(Move::EndSet { player: 0 });
    t.refused_then_overridden(
        Move::Janken {
            hand0: Rock,
            hand1: Scissors,
        },
        "junk-ken.janken-before-set-end",
        &["Ben has not ended the set phase"],
        &["Ben はまだセットフェーズを終えていません"],
    );
    assert_eq!(t.s().table.step, Step::Resolve);
}

#[test]
fn refusal_bullet_counters_names_the_player_the_card_and_the_counters() {
    // Given Aki's 弾丸ネズミ (Bullet I, marked チョキ, cost 1) threw グー: no counter,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK05", "JK01"],
        [6, 6],
    );
    t.done();
    t.throw(Rock, Rock);
    t.end_janken();
    t.refused_then_overridden(
        Move::SpendBullet { player: 0 },
        "junk-ken.bullet-counters",
        &["Aki's 弾丸ネズミ (Bullet Mouse) effect costs 1 counter(s); it holds 0"],
        &["Aki の 弾丸ネズミ の効果にはカウンターが1個必要です。いまは0個"],
    );
}

#[test]
fn refusal_necromancy_names_the_player_the_card_and_the_hand() {
    // Given Aki's ネジ丸 destroyed Ben's 空き缶 (HP 1): a card in Ben's graveyard,
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK01", "JK03"],
        [6, 1],
    );
    t.done();
    t.throw(Rock, Scissors);
    t.end_janken();
    // ネジ丸 has no Necromancy,
    t.refused_then_overridden(
        Move::Necromancy {
            player: 0,
            graveyard: 1,
            card: Some("JK03".into()),
        },
        "junk-ken.necromancy-skill",
        &["Aki's character ネジ丸 (Screw-Maru) has no Necromancy skill"],
        &["Aki のキャラクター ネジ丸 はネクロマンシースキルを持っていません"],
    );
    // and Aki's 墓守人形 (marked パー) that threw グー did not trigger it.
    let mut t = Table::started(
        serde_json::Value::Null,
        [&[], &[]],
        ["JK09", "JK03"],
        [6, 1],
    );
    t.done();
    t.throw(Rock, Scissors);
    t.end_janken();
    let marked = Paper.to_string();
    let thrown = Rock.to_string();
    t.refused_then_overridden(
        Move::Necromancy {
            player: 0,
            graveyard: 1,
            card: Some("JK03".into()),
        },
        "junk-ken.necromancy-trigger",
        &[
            "Aki's 墓守人形 (Grave-Keeper Doll)",
            &format!("Aki threw {thrown} this turn, not the marked {marked}"),
        ],
        &["Aki がこのターン出した手はグーで、専用マークのパーではありません"],
    );
}

#[test]
fn refusal_surrender_names_the_player_and_the_counts() {
    let mut t = Table::new();
    t.refused_then_overridden(
        Move::Surrender { player: 1 },
        "junk-ken.surrender",
        &["draft-variant option", "Ben: side 1, deck 5, hand 4"],
        &["Ben：サイド1、山札5、手札4"],
    );
}

#[test]
fn deck_rules_name_the_numbers_and_the_cards_in_both_languages() {
    let cat = catalogue();
    let names = common::quoted_names(
        &header(serde_json::Value::Null, [Vec::new(), Vec::new()]),
        &cat,
    );
    let check = |v: &[Violation], rule: &str, en: &[&str], ja: &[&str]| {
        let v = common::names_the_cause(v, rule, en, ja);
        common::assert_japanese(&v.sentence_ja, &names);
        assert!(
            v.reference.contains('「') || v.reference.starts_with("House rule"),
            "{v:?}"
        );
    };
    // 11 main-deck cards, two 黄金のネジ (Limited), an awakening card among them, a gear and
    // four cards in the extra deck.
    let main = [
        "JK10", "JK10", "JK17", "JK17", "JK18", "JK12", "JK12", "JK12", "JK13", "JK16", "JK06",
    ];
    let extra = ["JK01", "JK20", "JK22", "JK23"];
    let v = check_deck(&deck_of(&main, &extra, None), &cat);
    check(
        &v,
        "junk-ken.deck-size",
        &["exactly 10", "this one holds 11"],
        &["10枚", "このデッキは11枚"],
    );
    check(
        &v,
        "junk-ken.extra-size",
        &["at most 3", "this one holds 4"],
        &["最大3枚", "このデッキは4枚"],
    );
    check(
        &v,
        "junk-ken.main-kind",
        &["JK18 Great Screw-Maru"],
        &["大ネジ丸"],
    );
    check(&v, "junk-ken.extra-kind", &["JK01 Screw-Maru"], &["ネジ丸"]);
    check(
        &v,
        "junk-ken.limited",
        &["JK17 Golden Screw ×2"],
        &["黄金のネジ"],
    );
    // Ten 重い箱 (cost 4): 40 over the cap.
    let v = check_deck(&deck_of(&["JK92"; 10], &[], None), &cat);
    check(
        &v,
        "junk-ken.cost-cap",
        &["add up to 40", "over the cap of 25"],
        &["合計が40", "上限の25"],
    );
    // The draft's size: 30.
    let v = check_deck(&deck_of(&main, &[], Some("draft")), &cat);
    check(
        &v,
        "junk-ken.deck-size",
        &["exactly 30", "in the draft", "this one holds 11"],
        &["ドラフトでは", "30枚"],
    );
}

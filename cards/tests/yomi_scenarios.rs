//! Yomi scenarios in given / when / then form: every worked example of `rules/yomi.md` §11, every
//! refusal rule, every house-rule setting, and the documented demo script.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use cards::catalogue::Catalogue;
use cards::catalogue::yomi::End;
use cards::core::{GameId, Outcome, TrackerId};
use cards::game::{MatchHeader, PlayerConfig};
use cards::games::yomi::{
    AbilityWindows, CombatResult, DoubleKo, Escape, JokerTie, Kind, Move, NoCardRule, Pile, Rules,
    Step, TimeOut, Yomi,
};
use cards::matches::{Input, Match, Rejection};

const SUITS: [(char, &str); 4] = [
    ('S', "spades"),
    ('H', "hearts"),
    ('D', "diamonds"),
    ('C', "clubs"),
];
const RANKS: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];

/// The two ends of a test card (TOML inline tables), with exact numbers:
/// - normals: ♠ attack speed n.0 / block (5♠: speed 3.0, damage 7); ♥ attack n.2 / dodge;
///   ♦ throw n.4 / block; ♣ attack n.6 with knockdown / dodge; damage n, 1 combo point;
/// - specials and supers as listed below.
fn ends(rank: &str, suit: char) -> (String, String) {
    let attack = |speed: &str, dmg: u32, extra: &str| {
        format!(
            "{{ kind = \"attack\", name_en = \"Attack {rank}{suit}\", speed = {speed}, damage = {dmg}, combo_points = 1{extra} }}"
        )
    };
    let throw = |speed: &str, dmg: u32, extra: &str| {
        format!(
            "{{ kind = \"throw\", name_en = \"Throw {rank}{suit}\", speed = {speed}, damage = {dmg}, combo_points = 1{extra} }}"
        )
    };
    let block = "{ kind = \"block\", name_en = \"Block\" }".to_owned();
    let dodge = "{ kind = \"dodge\", name_en = \"Dodge\" }".to_owned();
    if let Ok(n) = rank.parse::<u32>() {
        return match suit {
            'S' if n == 5 => (attack("3.0", 7, ""), block),
            'S' => (attack(&format!("{n}.0"), n, ""), block),
            'H' => (attack(&format!("{n}.2"), n, ""), dodge),
            'D' => (throw(&format!("{n}.4"), n, ""), block),
            _ => (attack(&format!("{n}.6"), n, ", knockdown = true"), dodge),
        };
    }
    match (rank, suit) {
        ("J", 'S') => (attack("1.4", 5, ""), block),
        ("J", 'H') => (attack("2.0", 6, ""), dodge),
        ("J", 'D') => (throw("2.0", 6, ""), block),
        ("J", _) => (attack("2.0", 6, ", knockdown = true"), dodge),
        ("Q", 'S') => (attack("2.4", 4, ", pump_damage = 3, pump_cost = 1"), block),
        ("Q", 'H') => (
            "{ kind = \"attack\", name_en = \"Heavy\", speed = 2.6, damage = 5, combo_points = 10 }"
                .to_owned(),
            dodge,
        ),
        ("Q", 'D') => (throw("2.8", 7, ""), block),
        ("Q", _) => (
            attack(
                "3.0",
                3,
                ", abilities = [{ timing = \"combat-reveal\", text = \"Faster by 1.0 against a dodge.\" }]",
            ),
            "{ kind = \"ability\", name_en = \"Focus\", abilities = [{ timing = \"end-of-turn\", text = \"Discard this: draw 1.\" }] }".to_owned(),
        ),
        ("K", 'S') => (
            attack(
                "1.2",
                4,
                ", abilities = [{ timing = \"end-of-combat\", text = \"If this hit, heal 5.\" }]",
            ),
            block,
        ),
        ("K", 'H') => (attack("1.6", 5, ""), dodge),
        ("K", 'D') => (throw("1.8", 8, ", knockdown = true"), block),
        ("K", _) => (attack("1.8", 5, ""), dodge),
        ("A", 'S') => (
            "{ kind = \"attack\", name_en = \"Super S\", speed = 0.4, damage = 12, combo_points = 0 }".to_owned(),
            "{ kind = \"throw\", name_en = \"Super throw S\", speed = 0.6, damage = 14, combo_points = 0, knockdown = true }".to_owned(),
        ),
        ("A", 'H') => (
            "{ kind = \"attack\", name_en = \"Double Ace\", speed = 0.0, damage = 25, combo_points = 0, aces = 2 }".to_owned(),
            "{ kind = \"attack\", name_en = \"Super H\", speed = 0.8, damage = 11, combo_points = 0 }".to_owned(),
        ),
        ("A", 'D') => (
            "{ kind = \"throw\", name_en = \"Super D\", speed = 0.2, damage = 15, combo_points = 0 }".to_owned(),
            block,
        ),
        _ => (
            "{ kind = \"attack\", name_en = \"Super C\", speed = 1.0, damage = 13, combo_points = 0 }".to_owned(),
            dodge,
        ),
    }
}

/// A test set: characters `TA` and `TB` (90 HP, combo limit 10, no abilities) with the cards of
/// [`ends`]. Card ids: `TA-5S` (5 of spades), `TA-10H`, `TA-AS`, `TA-JK` (Joker), `TA-CH`
/// (character).
fn catalogue() -> Catalogue {
    let mut t = String::from(
        "format = 1\ngame = \"yomi\"\n[set]\nid = \"test\"\nname_en = \"Test\"\nname_ja = \"テスト\"\n",
    );
    for x in ['A', 'B'] {
        t.push_str(&format!(
            "[[cards]]\nid = \"T{x}-CH\"\nname_ja = \"T{x}\"\nname_en = \"T{x}\"\nkind = \"character\"\nhp = 90\ncombo_points = 10\n"
        ));
        for (s, suit) in SUITS {
            for r in RANKS {
                let (top, bottom) = ends(r, s);
                t.push_str(&format!(
                    "[[cards]]\nid = \"T{x}-{r}{s}\"\nname_ja = \"{r}{s}\"\nname_en = \"{r}{s}\"\nkind = \"move\"\ncharacter = \"T{x}-CH\"\nrank = \"{r}\"\nsuit = \"{suit}\"\ntop = {top}\nbottom = {bottom}\n"
                ));
            }
        }
        t.push_str(&format!(
            "[[cards]]\nid = \"T{x}-JK\"\nname_ja = \"Joker\"\nname_en = \"Joker\"\nkind = \"joker\"\ncharacter = \"T{x}-CH\"\n"
        ));
    }
    for x in ['A', 'B'] {
        let ids: Vec<String> = deck(x).iter().map(|c| format!("\"{c}\"")).collect();
        t.push_str(&format!(
            "[[decks]]\nid = \"t{x}\"\nname = \"T{x}\"\ncards = [{}]\n",
            ids.join(", ")
        ));
    }
    Catalogue::load("test.toml", &t).expect("test catalogue loads")
}

fn deck(x: char) -> Vec<String> {
    let mut d = vec![format!("T{x}-CH")];
    for (s, _) in SUITS {
        for r in RANKS {
            d.push(format!("T{x}-{r}{s}"));
        }
    }
    d.push(format!("T{x}-JK"));
    d.push(format!("T{x}-JK"));
    d
}

fn a(card: &str) -> String {
    format!("TA-{card}")
}
fn b(card: &str) -> String {
    format!("TB-{card}")
}

struct Table {
    m: Match<Yomi>,
}

impl Table {
    /// Given: Aki (seat 0, character TA) and Ben (seat 1, character TB), default rules.
    fn new() -> Table {
        Table::with_rules(Rules::default())
    }

    fn with_rules(rules: Rules) -> Table {
        let header = MatchHeader {
            game: GameId::Yomi,
            catalogue: "test".into(),
            players: vec![
                PlayerConfig {
                    name: "Aki".into(),
                    deck_name: "ta".into(),
                    deck: deck('A'),
                },
                PlayerConfig {
                    name: "Ben".into(),
                    deck_name: "tb".into(),
                    deck: deck('B'),
                },
            ],
            rules: serde_json::to_value(rules).unwrap(),
        };
        Table {
            m: Match::new(header, &catalogue()).expect("legal decks"),
        }
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
        let desc = format!("{mv:?}");
        self.try_play(mv)
            .unwrap_or_else(|e| panic!("{desc}: {e} (at {:?})", self.m.state().step));
    }

    /// The rule ids that refuse this move (the move is not applied).
    fn refused(&mut self, mv: Move) -> Vec<String> {
        match self.try_play(mv) {
            Err(Rejection::Refused { violations }) => {
                let names = common::quoted_names(self.m.header(), &catalogue());
                for v in &violations {
                    common::assert_japanese(&v.sentence_ja, &names);
                }
                violations.into_iter().map(|v| v.rule).collect()
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
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

    /// Then: the move is refused by `rule`, whose sentences name the cause (`en` in English,
    /// `ja` in Japanese); with an override it is applied, the entry records the broken rules,
    /// and the log replays to the live state.
    fn refused_then_overridden(&mut self, mv: Move, rule: &str, en: &[&str], ja: &[&str]) {
        common::refused_then_overridden(&mut self.m, &catalogue(), mv, "agreed", rule, en, ja);
    }

    fn adjust(&mut self, seat: Option<usize>, name: &str, value: i32) {
        let p = self
            .m
            .prepare(&Input::Adjust {
                tracker: TrackerId::named(seat, name),
                value,
                reason: "given".into(),
            })
            .unwrap();
        assert!(self.m.commit(p));
    }

    fn tracker(&self, seat: usize, name: &str) -> i32 {
        self.m
            .trackers()
            .into_iter()
            .find(|t| t.id == TrackerId::named(Some(seat), name))
            .unwrap_or_else(|| panic!("no tracker {name}[{seat}]"))
            .value
    }

    fn hp(&self, seat: usize) -> i32 {
        self.m.state().players[seat].hp
    }
    fn hand(&self, seat: usize) -> i32 {
        self.m.state().players[seat].hand
    }
    fn step(&self) -> Step {
        self.m.state().step
    }

    /// 2-1 and 2-2: both place a card face down and reveal these ends (`None`: no card).
    fn combat(&mut self, a_card: Option<(&str, End)>, b_card: Option<(&str, End)>) {
        for (seat, c) in [(0, &a_card), (1, &b_card)] {
            match c {
                Some(_) => self.play(Move::FaceDown { player: seat }),
                None => self.play(Move::NoCard { player: seat }),
            }
        }
        for (seat, c) in [(0, a_card), (1, b_card)] {
            if let Some((card, end)) = c {
                let id = if seat == 0 { a(card) } else { b(card) };
                self.play(Move::Reveal {
                    player: seat,
                    card: id,
                    end,
                });
            }
        }
    }

    fn result(&self) -> CombatResult {
        self.m
            .state()
            .combat
            .as_ref()
            .expect("combat decided")
            .result
    }

    /// Plays the rest of the turn with no choices: no escape, no combo, no searches.
    fn finish_turn(&mut self) {
        let turn = self.m.state().turn;
        for _ in 0..20 {
            if self.m.state().turn != turn || self.step() == Step::Over {
                return;
            }
            let s = self.m.state();
            let mv = match s.step {
                Step::Escape => Move::NoEscape {
                    player: 1 - s.winner().unwrap().0,
                },
                Step::Combo => Move::EndCombo {
                    player: s.winner().unwrap().0,
                },
                Step::GoldBurst | Step::PowerUp if s.players.iter().any(|p| p.aces_owed > 0) => {
                    let seat = (0..2).find(|&i| s.players[i].aces_owed > 0).unwrap();
                    Move::ForgoAces { player: seat }
                }
                Step::DrawAbilities
                | Step::RevealAbilities
                | Step::DuringCombat
                | Step::GoldBurst
                | Step::EndOfCombat
                | Step::PowerUp
                | Step::EndOfTurn => Move::Proceed {},
                other => panic!("finish_turn cannot go on from {other:?}"),
            };
            self.play(mv);
        }
    }
}

const T: End = End::Top;
const BOT: End = End::Bottom;

// ---------------------------------------------------------------------------------------------
// §11 worked examples

#[test]
fn example_11_1_attack_beats_throw() {
    // Given Aki's 5♠ attack (speed 3.0, damage 7) and Ben's 5♦ throw,
    let mut t = Table::new();
    // When both reveal,
    t.combat(Some(("5S", T)), Some(("5D", T)));
    // Then Aki wins combat, and (3-1) his normal attack hit: he draws 1 (7 − 1 + 1).
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Attack
        }
    );
    assert_eq!(t.hand(0), 7);
    assert_eq!(t.hand(1), 6);
    // When Ben puts no escape card and Aki combos nothing further,
    assert_eq!(t.step(), Step::Escape);
    t.play(Move::NoEscape { player: 1 });
    t.play(Move::EndCombo { player: 0 });
    // Then Ben loses 7 HP.
    assert_eq!(t.hp(1), 83);
    assert_eq!(t.hp(0), 90);
    assert_eq!(t.step(), Step::PowerUp);
}

#[test]
fn example_11_2_speed_decides_and_equal_speed_trades() {
    // Given Aki's J♠ attack (1.4) against Ben's J♥ attack (2.0),
    let mut t = Table::new();
    t.combat(Some(("JS", T)), Some(("JH", T)));
    // Then the lower number is faster: Aki wins.
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Attack
        }
    );

    // Given two attacks of speed 2.0 (J♥ against J♥),
    let mut t = Table::new();
    // When both reveal,
    t.combat(Some(("JH", T)), Some(("JH", T)));
    // Then both hit, nobody combos or pumps, and each takes the other's damage (6).
    assert_eq!(t.result(), CombatResult::Trade);
    assert_eq!(t.step(), Step::PowerUp);
    assert_eq!((t.hp(0), t.hp(1)), (84, 84));
    // A combo after a trade is at the wrong step (5-5 now): a rule, not "impossible".
    assert_eq!(
        t.refused(Move::Combo {
            player: 0,
            card: a("2S"),
            end: T
        }),
        vec!["yomi.phase-order".to_owned()]
    );
}

#[test]
fn example_11_3_block() {
    // Given Aki's 8♠ normal attack and Ben's block (the bottom of his 2♠),
    let mut t = Table::new();
    // When both reveal,
    t.combat(Some(("8S", T)), Some(("2S", BOT)));
    // Then Ben wins with the block; Aki's blocked normal attack draws 1 (3-1); Ben takes the
    // block card back and draws 1 (4-1); nobody takes damage.
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 1,
            by: Kind::Block
        }
    );
    assert_eq!(t.hand(0), 7);
    assert_eq!(t.hand(1), 8);
    assert!(t.m.state().players[1].unseen.contains(&b("2S")));
    assert_eq!((t.hp(0), t.hp(1)), (90, 90));
    assert_eq!(t.step(), Step::PowerUp);
    t.play(Move::Proceed {});
    assert_eq!(t.m.state().players[1].discard, Vec::<String>::new());
}

#[test]
fn example_11_4_blue_burst() {
    // Given Aki's 6♠ attack (damage 6) beats Ben's 10♦ throw,
    let mut t = Table::new();
    t.combat(Some(("6S", T)), Some(("10D", T)));
    // When Ben puts a card face down (3-2), Aki combos 4 + 5 (4♠, 5♥) and Ben reveals a Joker,
    t.play(Move::Escape { player: 1 });
    t.play(Move::Combo {
        player: 0,
        card: a("4S"),
        end: T,
    });
    t.play(Move::Combo {
        player: 0,
        card: a("5H"),
        end: T,
    });
    t.play(Move::EndCombo { player: 0 });
    assert_eq!(t.step(), Step::BlueBurst);
    t.play(Move::RevealEscape {
        player: 1,
        card: b("JK"),
    });
    // Then the 9 combo damage is cancelled, Ben draws 2, and takes only the 6 combat damage.
    assert_eq!(t.tracker(1, "cancelled"), 9);
    assert_eq!(t.hp(1), 84);
    assert_eq!(t.hand(1), 7 - 1 - 1 + 2);
    assert_eq!(t.m.state().players[1].escape, Escape::Revealed(b("JK")));
}

#[test]
fn a_bluff_escape_card_cancels_nothing() {
    // Given the same combo, when Ben's escape card is not a Joker,
    let mut t = Table::new();
    t.combat(Some(("6S", T)), Some(("10D", T)));
    t.play(Move::Escape { player: 1 });
    t.play(Move::Combo {
        player: 0,
        card: a("4S"),
        end: T,
    });
    t.play(Move::EndCombo { player: 0 });
    t.play(Move::RevealEscape {
        player: 1,
        card: b("3S"),
    });
    // Then all damage goes through and the bluff goes to the discard pile at 5-3.
    assert_eq!(t.hp(1), 80);
    assert_eq!(t.hand(1), 5);
    t.play(Move::Proceed {});
    assert!(t.m.state().players[1].discard.contains(&b("3S")));
}

#[test]
fn example_11_5_gold_burst() {
    // Given Aki's Joker against Ben's attack,
    let mut t = Table::new();
    t.combat(Some(("JK", T)), Some(("9S", T)));
    // Then the Joker wins, and in 5-1 Aki may fetch up to 2 Aces from deck or discard pile.
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Joker
        }
    );
    assert_eq!(t.step(), Step::GoldBurst);
    assert_eq!(t.tracker(0, "aces-owed"), 2);
    assert_eq!(
        t.refused(Move::Proceed {}),
        vec!["yomi.ace-search-open".to_owned()]
    );
    // When he takes two Aces from the deck,
    t.play(Move::Search {
        player: 0,
        card: a("AS"),
        from: Pile::Deck,
    });
    t.play(Move::Search {
        player: 0,
        card: a("AH"),
        from: Pile::Deck,
    });
    // Then his hand grows by 2, his deck shrinks by 2, and a third Ace is not owed.
    assert_eq!(t.hand(0), 6 + 2);
    assert_eq!(t.tracker(0, "deck"), 45);
    assert_eq!(
        t.refused(Move::Search {
            player: 0,
            card: a("AD"),
            from: Pile::Deck
        }),
        vec!["yomi.search-not-owed".to_owned()]
    );
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::PowerUp);
}

#[test]
fn example_11_6_chain_and_power_up() {
    // Given Aki's 3♠ attack hits and he chains 4♠ and 5♥ (3-4-5),
    let mut t = Table::new();
    t.combat(Some(("3S", T)), Some(("10D", T)));
    t.play(Move::NoEscape { player: 1 });
    t.play(Move::Combo {
        player: 0,
        card: a("4S"),
        end: T,
    });
    t.play(Move::Combo {
        player: 0,
        card: a("5H"),
        end: T,
    });
    assert_eq!(t.tracker(0, "chain"), 3);
    t.play(Move::EndCombo { player: 0 });
    // Then at 5-4 the chain of 3 earns 1 Ace.
    assert_eq!(t.step(), Step::PowerUp);
    assert_eq!(t.tracker(0, "aces-owed"), 1);
    // When he discards two 7s (1 Ace) and three 4s (2 Aces),
    t.play(Move::PowerUp {
        player: 0,
        cards: vec![a("7S"), a("7H")],
    });
    assert_eq!(t.tracker(0, "aces-owed"), 2);
    t.play(Move::PowerUp {
        player: 0,
        cards: vec![a("4H"), a("4D"), a("4C")],
    });
    // Then he may search 4 Aces in all.
    assert_eq!(t.tracker(0, "aces-owed"), 4);
    assert_eq!(t.hand(0), 0);
    for ace in ["AS", "AH", "AD", "AC"] {
        t.play(Move::Search {
            player: 0,
            card: a(ace),
            from: Pile::Deck,
        });
    }
    assert_eq!(t.hand(0), 4);
    t.play(Move::Proceed {});
    assert_eq!(t.m.state().turn, 2);
}

#[test]
fn example_11_7_hand_limit() {
    // Given Aki holds 15 cards (14 after placing his combat card),
    let mut t = Table::new();
    t.adjust(Some(0), "hand", 15);
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    // When the turn reaches 5-7,
    t.play(Move::Proceed {});
    // Then Aki discards exactly 2 down to 12, and a third card is refused.
    assert_eq!(t.step(), Step::HandLimit);
    assert_eq!(t.hand(0), 14);
    assert_eq!(
        t.refused(Move::Discard {
            player: 0,
            cards: vec![a("3S"), a("4S"), a("5S")]
        }),
        vec!["yomi.hand-limit".to_owned()]
    );
    t.play(Move::Discard {
        player: 0,
        cards: vec![a("3S"), a("4S")],
    });
    assert_eq!(t.m.state().turn, 2);
    assert_eq!(t.hand(0), 13); // 12 + the turn-2 draw

    // Given Aki holds 12 after 5-6, no discard is asked.
    let mut t = Table::new();
    t.adjust(Some(0), "hand", 13);
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    assert_eq!(t.m.state().turn, 2);
}

#[test]
fn example_11_8_knockdown_lifecycle() {
    // Given turn 1: Aki's 2♣ (knockdown) hits Ben,
    let mut t = Table::new();
    t.combat(Some(("2C", T)), Some(("9D", T)));
    t.finish_turn();
    // Then Ben is knocked down.
    assert_eq!(t.tracker(1, "knockdown"), 1);
    // When on turn 2 Aki's last hit has no knockdown,
    t.combat(Some(("3S", T)), Some(("8D", T)));
    t.finish_turn();
    // Then Ben's flag from before the turn is cleared.
    assert_eq!(t.tracker(1, "knockdown"), 0);
    // When on turn 3 Aki's last hit knocks down again, Ben is down again,
    t.combat(Some(("3C", T)), Some(("7D", T)));
    t.finish_turn();
    assert_eq!(t.tracker(1, "knockdown"), 1);
    // and when on turn 4 both last hits knock down (an equal-speed trade of J♣), both clear.
    t.combat(Some(("JC", T)), Some(("JC", T)));
    assert_eq!(t.result(), CombatResult::Trade);
    assert_eq!(t.tracker(0, "knockdown"), 0);
    assert_eq!(t.tracker(1, "knockdown"), 0);
}

#[test]
fn knockdown_follows_the_last_hit_of_the_combo() {
    // Given Aki's 2♣ (knockdown) hits, when his combo ends with a 3♠ (no knockdown),
    let mut t = Table::new();
    t.combat(Some(("2C", T)), Some(("9D", T)));
    t.play(Move::NoEscape { player: 1 });
    t.play(Move::Combo {
        player: 0,
        card: a("3S"),
        end: T,
    });
    t.play(Move::EndCombo { player: 0 });
    // Then Ben is not knocked down.
    assert_eq!(t.tracker(1, "knockdown"), 0);
}

#[test]
fn example_11_9_time_out() {
    // Given turn 2 is coming, Aki's deck holds 1 card, HP Aki 30 / Ben 45,
    let mut t = Table::new();
    t.adjust(Some(0), "deck", 1);
    t.adjust(Some(0), "hp", 30);
    t.adjust(Some(1), "hp", 45);
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    // When Aki draws his last card in the draw phase,
    t.play(Move::Proceed {});
    // Then the game ends at once and Aki, with less HP, loses.
    assert_eq!(t.step(), Step::Over);
    assert_eq!(t.tracker(0, "deck"), 0);
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 1, .. })
    ));

    // Given equal HP (40 / 40), the time out is a draw.
    let mut t = Table::new();
    t.adjust(Some(0), "deck", 1);
    t.adjust(Some(0), "hp", 40);
    t.adjust(Some(1), "hp", 40);
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    assert!(matches!(t.m.outcome(), Some(Outcome::Draw { .. })));
}

#[test]
fn an_ace_search_that_empties_the_deck_ends_the_game() {
    // Given Aki's deck holds 1 card and his Joker wins,
    let mut t = Table::new();
    t.adjust(Some(0), "deck", 1);
    t.adjust(Some(1), "hp", 50);
    t.combat(Some(("JK", T)), Some(("9S", T)));
    // When he searches an Ace from the deck (§10.5),
    t.play(Move::Search {
        player: 0,
        card: a("AS"),
        from: Pile::Deck,
    });
    // Then the deck is at 0 and the game is over: Aki has more HP.
    assert_eq!(t.step(), Step::Over);
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 0, .. })
    ));
}

#[test]
fn example_11_10_hp_cap() {
    // Given Aki (starting HP 90) at 85,
    let mut t = Table::new();
    t.adjust(Some(0), "hp", 85);
    // When an ability heals him 10,
    t.play(Move::Effect {
        player: 0,
        hp: 10,
        opp_hp: 0,
        draw: 0,
        speed: 0,
        combo_damage: 0,
        note: "heal 10".into(),
    });
    // Then his HP is 90, not 95.
    assert_eq!(t.hp(0), 90);
}

#[test]
fn example_11_11_first_turn() {
    // Given a new match,
    let mut t = Table::new();
    // Then turn 1 starts at 2-1 with 7 cards in hand and no draw.
    assert_eq!(t.m.state().turn, 1);
    assert_eq!(t.step(), Step::Select);
    assert_eq!((t.hand(0), t.tracker(0, "deck")), (7, 47));
    // When turn 1 ends, turn 2 starts with 1-1: both draw 1.
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    assert_eq!(t.m.state().turn, 2);
    assert_eq!((t.hand(0), t.tracker(0, "deck")), (7, 46));
    assert_eq!((t.hand(1), t.tracker(1, "deck")), (7, 46));
}

#[test]
fn ko_ends_the_game_at_once() {
    // Given Ben at 5 HP,
    let mut t = Table::new();
    t.adjust(Some(1), "hp", 5);
    // When Aki's 5♠ (7 damage) hits,
    t.combat(Some(("5S", T)), Some(("5D", T)));
    t.play(Move::NoEscape { player: 1 });
    t.play(Move::EndCombo { player: 0 });
    // Then Ben is KO'd and Aki wins.
    assert_eq!(t.step(), Step::Over);
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 0, .. })
    ));
}

#[test]
fn a_dodge_wins_and_retaliates_once() {
    // Given Aki's dodge against Ben's attack,
    let mut t = Table::new();
    t.combat(Some(("2H", BOT)), Some(("9S", T)));
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Dodge
        }
    );
    // Then no escape card is offered and Aki retaliates with one move,
    assert_eq!(t.step(), Step::Combo);
    t.play(Move::Combo {
        player: 0,
        card: a("6S"),
        end: T,
    });
    // and a second one is refused.
    assert_eq!(
        t.refused(Move::Combo {
            player: 0,
            card: a("7S"),
            end: T
        }),
        vec!["yomi.dodge-retaliation".to_owned()]
    );
    t.play(Move::EndCombo { player: 0 });
    assert_eq!(t.hp(1), 84);
}

#[test]
fn a_multi_ace_super_puts_out_its_extra_ace() {
    // Given Aki reveals the Double Ace (A♥ top: 2 Aces),
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 0,
        card: a("AH"),
        end: T,
    });
    t.play(Move::Reveal {
        player: 1,
        card: b("9S"),
        end: T,
    });
    // Then combat waits for the extra Ace; a card that is not an Ace is refused.
    assert_eq!(t.step(), Step::Reveal);
    assert_eq!(
        t.refused(Move::ExtraAce {
            player: 0,
            card: a("2S")
        }),
        vec!["yomi.extra-aces".to_owned()]
    );
    // When he puts out the A♠,
    t.play(Move::ExtraAce {
        player: 0,
        card: a("AS"),
    });
    // Then combat is decided: speed 0.0 wins.
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Attack
        }
    );
    assert_eq!(t.hand(0), 5);
}

#[test]
fn no_card_lets_the_opponent_choose_again() {
    // Given Ben placed a card face down and Aki declares "no card",
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 1 });
    // When Aki re-chooses without cause, it is refused,
    t.play(Move::NoCard { player: 0 });
    assert_eq!(t.step(), Step::Reveal);
    assert_eq!(
        t.refused(Move::Rechoose { player: 0 }),
        vec!["yomi.rechoose".to_owned()]
    );
    // but Ben may take his card back and choose again.
    t.play(Move::Rechoose { player: 1 });
    assert_eq!(t.step(), Step::Select);
    assert_eq!(t.hand(1), 7);
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 1,
        card: b("4D"),
        end: T,
    });
    // Then "no card" loses to the throw (§10.2).
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 1,
            by: Kind::Throw
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Refusals

#[test]
fn refusal_not_a_combat_move() {
    // Given a face-down card, when Aki reveals the ability end of Q♣,
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    // Then it is refused.
    assert_eq!(
        t.refused(Move::Reveal {
            player: 0,
            card: a("QC"),
            end: BOT
        }),
        vec!["yomi.not-a-combat-move".to_owned()]
    );
}

#[test]
fn refusal_combo_move_combo_limit_and_pumps() {
    // Given Aki's Q♠ (pump 3 for 1 card) hits,
    let mut t = Table::new();
    t.combat(Some(("QS", T)), Some(("10D", T)));
    t.play(Move::NoEscape { player: 1 });
    // When he combos into a block end, it is refused;
    assert_eq!(
        t.refused(Move::Combo {
            player: 0,
            card: a("3S"),
            end: BOT
        }),
        vec!["yomi.combo-move".to_owned()]
    );
    // a pump paying 2 cards is refused, paying 1 adds 3 damage;
    assert_eq!(
        t.refused(Move::Pump {
            player: 0,
            cards: vec![a("2S"), a("3S")]
        }),
        vec!["yomi.pump-cost".to_owned()]
    );
    t.play(Move::Pump {
        player: 0,
        cards: vec![a("2S")],
    });
    // Q♠ (1 point) + Heavy (10) is over the limit of 10;
    assert_eq!(
        t.refused(Move::Combo {
            player: 0,
            card: a("QH"),
            end: T
        }),
        vec!["yomi.combo-limit".to_owned()]
    );
    // a move without a pump cannot be pumped.
    t.play(Move::Combo {
        player: 0,
        card: a("6H"),
        end: T,
    });
    assert_eq!(
        t.refused(Move::Pump {
            player: 0,
            cards: vec![a("3S")]
        }),
        vec!["yomi.no-pump".to_owned()]
    );
    t.play(Move::EndCombo { player: 0 });
    // Then Ben took 4 + 3 + 6.
    assert_eq!(t.hp(1), 90 - 13);
    assert_eq!(t.tracker(0, "combo-points"), 2);
}

#[test]
fn refusal_searches_and_power_ups() {
    // Given the power-up step with no Ace search open,
    let mut t = Table::new();
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    assert_eq!(t.step(), Step::PowerUp);
    // Then searching a card that is not an Ace, or an Ace not owed, is refused,
    assert_eq!(
        t.refused(Move::Search {
            player: 0,
            card: a("2H"),
            from: Pile::Deck
        }),
        vec!["yomi.search-not-ace".to_owned()]
    );
    assert_eq!(
        t.refused(Move::Search {
            player: 0,
            card: a("AS"),
            from: Pile::Deck
        }),
        vec!["yomi.search-not-owed".to_owned()]
    );
    // and so are power-ups of mixed ranks or of one card.
    assert_eq!(
        t.refused(Move::PowerUp {
            player: 0,
            cards: vec![a("7S"), a("8S")]
        }),
        vec!["yomi.power-up-rank".to_owned()]
    );
    assert_eq!(
        t.refused(Move::PowerUp {
            player: 0,
            cards: vec![a("7S")]
        }),
        vec!["yomi.power-up-size".to_owned()]
    );
    // A card not among the unplayed cards cannot be meant at all.
    assert!(matches!(
        t.try_play(Move::PowerUp {
            player: 0,
            cards: vec![a("2S"), a("2S")]
        }),
        Err(Rejection::Impossible(_))
    ));
}

#[test]
fn refusal_phase_order_and_effect_timing() {
    // Given turn 1 at 2-1,
    let mut t = Table::new();
    // Then a power-up and a discard are refused outside 5-5 and 5-7,
    assert_eq!(
        t.refused(Move::PowerUp {
            player: 0,
            cards: vec![a("7S"), a("7H")]
        }),
        vec!["yomi.phase-order".to_owned()]
    );
    assert_eq!(
        t.refused(Move::Discard {
            player: 0,
            cards: vec![a("7S")]
        }),
        vec!["yomi.phase-order".to_owned()]
    );
    // and with an override the discard is applied and logged.
    t.override_play(Move::Discard {
        player: 0,
        cards: vec![a("7S")],
    });
    assert_eq!(t.hand(0), 6);
    // A speed change after 2-4 is refused.
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    assert_eq!(
        t.refused(Move::Effect {
            player: 0,
            hp: 0,
            opp_hp: 0,
            draw: 0,
            speed: -10,
            combo_damage: 0,
            note: String::new()
        }),
        vec!["yomi.effect-timing".to_owned()]
    );
}

#[test]
fn a_combat_reveal_speed_change_decides_combat() {
    // Given Aki's Q♣ (speed 3.0, a [Combat Reveal] ability) against Ben's 2♠ (2.0),
    let mut t = Table::new();
    t.combat(Some(("QC", T)), Some(("2S", T)));
    // Then the [Combat Reveal] step opens,
    assert_eq!(t.step(), Step::RevealAbilities);
    // When the ability makes Aki 1.5 faster (1.5 < 2.0),
    t.play(Move::Effect {
        player: 0,
        hp: 0,
        opp_hp: 0,
        draw: 0,
        speed: -15,
        combo_damage: 0,
        note: "faster".into(),
    });
    t.play(Move::Proceed {});
    // Then Aki wins.
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Attack
        }
    );
}

// ---------------------------------------------------------------------------------------------
// House rules

#[test]
fn rule_no_card_nothing() {
    // Given no_card = nothing, when Aki attacks into "no card", nothing happens.
    let mut t = Table::with_rules(Rules {
        no_card: NoCardRule::Nothing,
        ..Rules::default()
    });
    t.combat(Some(("5S", T)), None);
    assert_eq!(t.result(), CombatResult::Nothing);
    // By default the attack wins.
    let mut t = Table::new();
    t.combat(Some(("5S", T)), None);
    assert!(matches!(t.result(), CombatResult::Won { winner: 0, .. }));
}

#[test]
fn rule_joker_vs_joker() {
    // By default Joker against Joker is a draw: both get the gold burst.
    let mut t = Table::new();
    t.combat(Some(("JK", T)), Some(("JK", T)));
    assert_eq!(t.result(), CombatResult::JokerDraw);
    assert_eq!(
        (t.tracker(0, "aces-owed"), t.tracker(1, "aces-owed")),
        (2, 2)
    );
    // With joker_vs_joker = nothing, nobody does.
    let mut t = Table::with_rules(Rules {
        joker_vs_joker: JokerTie::Nothing,
        ..Rules::default()
    });
    t.combat(Some(("JK", T)), Some(("JK", T)));
    assert_eq!(t.result(), CombatResult::Nothing);
    assert_eq!(t.step(), Step::PowerUp);
}

#[test]
fn rule_block_returns_unless_lost() {
    // Given a block against a block, by default the block does not return (it did not win),
    let mut t = Table::new();
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    assert_eq!(t.hand(0), 6);
    // but with block_returns_unless_lost it does, without a draw.
    let mut t = Table::with_rules(Rules {
        block_returns_unless_lost: true,
        ..Rules::default()
    });
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    assert_eq!(t.hand(0), 7);
}

#[test]
fn rule_time_out_end_of_turn() {
    // Given time_out = end-of-turn and Aki's deck at 1,
    let mut t = Table::with_rules(Rules {
        time_out: TimeOut::EndOfTurn,
        ..Rules::default()
    });
    t.adjust(Some(0), "deck", 1);
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    // When he draws his last card, the turn goes on,
    assert_eq!(t.tracker(0, "deck"), 0);
    assert_eq!(t.step(), Step::Select);
    assert!(t.m.outcome().is_none());
    // and the game ends at the end of the turn (equal HP: a draw).
    t.combat(Some(("3S", BOT)), Some(("3S", BOT)));
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::Over);
    assert!(matches!(t.m.outcome(), Some(Outcome::Draw { .. })));
}

#[test]
fn rule_double_ko() {
    // Given both at 5 HP, an equal-speed trade KOs both: a draw by default,
    let mut t = Table::new();
    t.adjust(Some(0), "hp", 5);
    t.adjust(Some(1), "hp", 6);
    t.combat(Some(("JH", T)), Some(("JH", T)));
    assert!(matches!(t.m.outcome(), Some(Outcome::Draw { .. })));
    // and the player with more HP left wins with double_ko = higher-hp-wins.
    let mut t = Table::with_rules(Rules {
        double_ko: DoubleKo::HigherHpWins,
        ..Rules::default()
    });
    t.adjust(Some(0), "hp", 5);
    t.adjust(Some(1), "hp", 6);
    t.combat(Some(("JH", T)), Some(("JH", T)));
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 1, .. })
    ));
}

#[test]
fn rule_escape_after_any_win() {
    // By default a dodge win offers no escape card,
    let mut t = Table::new();
    t.combat(Some(("2H", BOT)), Some(("9S", T)));
    assert_eq!(t.step(), Step::Combo);
    // with escape_after_any_win it does.
    let mut t = Table::with_rules(Rules {
        escape_after_any_win: true,
        ..Rules::default()
    });
    t.combat(Some(("2H", BOT)), Some(("9S", T)));
    assert_eq!(t.step(), Step::Escape);
}

#[test]
fn rule_combo_limit_checks() {
    // With check_combo_limit = false, the Heavy (10 points) after a Q♠ (1) is allowed.
    let mut t = Table::with_rules(Rules {
        check_combo_limit: false,
        ..Rules::default()
    });
    t.combat(Some(("QS", T)), Some(("10D", T)));
    t.play(Move::NoEscape { player: 1 });
    t.play(Move::Combo {
        player: 0,
        card: a("QH"),
        end: T,
    });
    assert_eq!(t.tracker(0, "combo-points"), 11);
    // With combat_card_counts = false, the Q♠'s point does not count: 10 ≤ 10.
    let mut t = Table::with_rules(Rules {
        combat_card_counts: false,
        ..Rules::default()
    });
    t.combat(Some(("QS", T)), Some(("10D", T)));
    t.play(Move::NoEscape { player: 1 });
    t.play(Move::Combo {
        player: 0,
        card: a("QH"),
        end: T,
    });
    assert_eq!(t.tracker(0, "combo-points"), 10);
}

#[test]
fn rule_ability_windows_always() {
    // By default turn 2 skips the [Draw Phase] step (no such ability in play),
    let mut t = Table::new();
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::Select);
    // with ability_windows = always every ability step opens.
    let mut t = Table::with_rules(Rules {
        ability_windows: AbilityWindows::Always,
        ..Rules::default()
    });
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    assert_eq!(t.step(), Step::RevealAbilities);
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::DuringCombat);
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::EndOfCombat);
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::PowerUp);
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::EndOfTurn);
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::DrawAbilities);
}

#[test]
fn rule_hand_limit_off() {
    // With hand_limit = false, 14 cards are kept.
    let mut t = Table::with_rules(Rules {
        hand_limit: false,
        ..Rules::default()
    });
    t.adjust(Some(0), "hand", 15);
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    assert_eq!(t.m.state().turn, 2);
    assert_eq!(t.hand(0), 15);
}

#[test]
fn rule_normal_attack_draw_off() {
    // With normal_attack_draw = false, a hitting normal attack draws nothing.
    let mut t = Table::with_rules(Rules {
        normal_attack_draw: false,
        ..Rules::default()
    });
    t.combat(Some(("5S", T)), Some(("5D", T)));
    assert_eq!(t.hand(0), 6);
}

#[test]
fn rule_hp_cap_off() {
    // With hp_cap = false, healing goes above the starting HP.
    let mut t = Table::with_rules(Rules {
        hp_cap: false,
        ..Rules::default()
    });
    t.adjust(Some(0), "hp", 85);
    t.play(Move::Effect {
        player: 0,
        hp: 10,
        opp_hp: 0,
        draw: 0,
        speed: 0,
        combo_damage: 0,
        note: String::new(),
    });
    assert_eq!(t.hp(0), 95);
}

#[test]
fn rule_double_knockdown_kept() {
    // With double_knockdown_cancels = false, a knockdown trade knocks both down.
    let mut t = Table::with_rules(Rules {
        double_knockdown_cancels: false,
        ..Rules::default()
    });
    t.combat(Some(("JC", T)), Some(("JC", T)));
    assert_eq!(
        (t.tracker(0, "knockdown"), t.tracker(1, "knockdown")),
        (1, 1)
    );
}

#[test]
fn rule_apply_block_damage() {
    // Given apply_block_damage and the demo decks (Gou's 8♠ Mountain Palm prints block damage 1),
    let cat = Catalogue::builtin(GameId::Yomi).unwrap();
    let mut header =
        cards::games::yomi::demo_header(&cat, ["Aki", "Ben"], ["akane", "gou"]).unwrap();
    header.rules = serde_json::json!({"apply_block_damage": true, "ability_windows": "relevant"});
    let mut m = Match::<Yomi>::new(header, &cat).unwrap();
    let play = |m: &mut Match<Yomi>, mv: Move| {
        let p = m
            .prepare(&Input::Move {
                mv,
                override_reason: None,
            })
            .unwrap();
        m.commit(p);
    };
    // When Akane blocks Gou's Mountain Palm (block damage 1),
    play(&mut m, Move::FaceDown { player: 0 });
    play(&mut m, Move::FaceDown { player: 1 });
    play(
        &mut m,
        Move::Reveal {
            player: 0,
            card: "YO-A01".into(),
            end: End::Bottom,
        },
    );
    play(
        &mut m,
        Move::Reveal {
            player: 1,
            card: "YO-B07".into(),
            end: End::Top,
        },
    );
    // Then the block wins and Akane takes 1 chip damage.
    assert_eq!(m.state().players[0].hp, 79);
}

#[test]
fn unknown_house_rule_is_refused() {
    let cat = catalogue();
    let header = MatchHeader {
        game: GameId::Yomi,
        catalogue: "test".into(),
        players: vec![
            PlayerConfig {
                name: "Aki".into(),
                deck_name: "a".into(),
                deck: deck('A'),
            },
            PlayerConfig {
                name: "Ben".into(),
                deck_name: "b".into(),
                deck: deck('B'),
            },
        ],
        rules: serde_json::json!({"hand_limt": false}),
    };
    let e = Match::<Yomi>::new(header, &cat).unwrap_err();
    assert!(e.to_string().contains("hand_limt"), "{e}");
}

#[test]
fn an_incomplete_deck_is_refused_at_setup() {
    let cat = catalogue();
    let mut short = deck('A');
    short.pop();
    short.retain(|c| c != "TA-7S");
    let header = MatchHeader {
        game: GameId::Yomi,
        catalogue: "test".into(),
        players: vec![
            PlayerConfig {
                name: "Aki".into(),
                deck_name: "a".into(),
                deck: short,
            },
            PlayerConfig {
                name: "Ben".into(),
                deck_name: "b".into(),
                deck: deck('B'),
            },
        ],
        rules: serde_json::Value::Null,
    };
    let e = Match::<Yomi>::new(header, &cat).unwrap_err();
    assert!(e.to_string().contains("missing"), "{e}");
}

#[test]
fn the_documented_demo_script_plays_a_whole_match() {
    use cards::script::{Script, run_step};
    let text = include_str!("../../docs/examples/yomi-demo.script");
    let script = Script::parse(text).unwrap();
    let cat = Catalogue::builtin(GameId::Yomi).unwrap();
    let mut m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    for (line, step) in &script.steps {
        run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(matches!(m.outcome(), Some(Outcome::Win { winner: 0, .. })));
    let log = m.log();
    assert!(log.iter().any(|l| !l.overridden.is_empty()));
}

// ---------------------------------------------------------------------------------------------
// Refusals of moves a player can make at the table: rules, with an override's effect.

#[test]
fn refusal_a_draw_on_turn_1() {
    // Given turn 1 (0-1: no draw phase),
    let mut t = Table::new();
    // When Aki draws a card by hand, it is refused by the first-turn rule, naming turn 1;
    t.refused_then_overridden(
        Move::Draw { player: 0 },
        "yomi.first-turn-draw",
        &["Aki", "turn 1", "no draw phase"],
        &["Aki", "1ターン目", "ドローフェイズがなく"],
    );
    // and overridden, the card is drawn.
    assert_eq!((t.hand(0), t.tracker(0, "deck")), (8, 46));
    // On turn 2 the app made the draw of 1-1: another draw is an extra draw.
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    assert_eq!(t.m.state().turn, 2);
    t.refused_then_overridden(
        Move::Draw { player: 1 },
        "yomi.extra-draw",
        &["Ben", "no rule gives", "1-1"],
        &["Ben", "ルールにないドロー"],
    );
    assert_eq!(t.hand(1), 8);
}

#[test]
fn refusal_choosing_twice_and_at_the_wrong_step() {
    // Given Aki's card face down at 2-1,
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 0 });
    // When he declares "no card" as well, it is one combat card per player,
    t.refused_then_overridden(
        Move::NoCard { player: 0 },
        "yomi.one-combat-card",
        &["Aki", "already placed a combat card face down"],
        &["Aki", "すでに戦闘札を伏せています"],
    );
    // and overridden, the new choice replaces the face-down one (the card is back in hand).
    assert_eq!(t.hand(0), 7);
    assert_eq!(t.m.state().no_card_by, Some(0));
    // After combat, at the power-up step, placing a card face down is at the wrong step;
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 1,
        card: b("2S"),
        end: BOT,
    });
    assert_eq!(t.step(), Step::PowerUp);
    t.refused_then_overridden(
        Move::FaceDown { player: 1 },
        "yomi.phase-order",
        &["Choosing a combat card", "2-1", "5-4/5-5"],
        &["戦闘札の選択", "2-1. 戦闘札選択", "ターン1 5-4/5-5"],
    );
    assert_eq!(t.step(), Step::PowerUp);
}

#[test]
fn refusal_revealing_a_card_never_placed_face_down() {
    // Given 2-1 with nothing placed,
    let mut t = Table::new();
    // When Aki turns a card up straight from his hand, it is refused (2-1 before 2-2),
    t.refused_then_overridden(
        Move::Reveal {
            player: 0,
            card: a("5S"),
            end: T,
        },
        "yomi.reveal-face-down",
        &["Aki", "not placed face down first"],
        &["Aki", "伏せていない戦闘札"],
    );
    // and overridden, it is his combat card: Ben places and reveals, and combat is decided.
    assert_eq!(t.hand(0), 6);
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 1,
        card: b("5D"),
        end: T,
    });
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Attack
        }
    );
    // A second revealed card the same turn is one combat card too many.
    t.refused_then_overridden(
        Move::Reveal {
            player: 0,
            card: a("6S"),
            end: T,
        },
        "yomi.one-combat-card",
        &["Aki", "already revealed", "5S"],
        &["Aki", "すでに公開しています"],
    );
}

#[test]
fn refusal_going_on_while_a_step_waits() {
    // Given 2-1 where Ben has placed a card and Aki has not,
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 1 });
    // When the table goes on, it names Aki, who has not chosen;
    t.refused_then_overridden(
        Move::Proceed {},
        "yomi.step-not-done",
        &["Aki must still choose a combat card", "2-1"],
        &["Aki はまだ戦闘札を選んでいません"],
    );
    // overridden, Aki's choice counts as "no card", and Ben must reveal (2-2).
    assert_eq!(t.step(), Step::Reveal);
    t.refused_then_overridden(
        Move::Proceed {},
        "yomi.step-not-done",
        &["Ben must still reveal", "2-2"],
        &["Ben はまだ戦闘札を表に返す"],
    );
    // Both "no card": nothing happens, and the turn goes on to 5-5.
    assert_eq!(t.step(), Step::PowerUp);
    assert_eq!(t.hand(1), 7);
}

#[test]
fn refusal_escape_and_combo_by_the_wrong_player() {
    // Given Aki's attack beats Ben's throw (3-2: Ben, the loser, may put an escape card),
    let mut t = Table::new();
    t.combat(Some(("5S", T)), Some(("5D", T)));
    assert_eq!(t.step(), Step::Escape);
    // When Aki, the winner, puts one, it is the loser's step;
    t.refused_then_overridden(
        Move::Escape { player: 0 },
        "yomi.escape-loser",
        &["Aki won combat", "only the loser"],
        &["Aki は戦闘に勝ちました", "負けた側だけ"],
    );
    assert_eq!(t.step(), Step::Escape);
    t.play(Move::NoEscape { player: 1 });
    assert_eq!(t.step(), Step::Combo);
    // When Ben, the loser, combos, only the winner combos;
    t.refused_then_overridden(
        Move::Combo {
            player: 1,
            card: b("3S"),
            end: T,
        },
        "yomi.combo-winner",
        &["Ben combos", "Aki won combat"],
        &["Ben がコンボをつなげることはできません", "Aki"],
    );
    // and so does his ending of the combo.
    t.refused_then_overridden(
        Move::EndCombo { player: 1 },
        "yomi.combo-winner",
        &["Ben ends the combo", "Aki won combat"],
        &["Ben がコンボを終える"],
    );
    // The overridden end of the combo ends it for the table.
    assert_ne!(t.step(), Step::Combo);
}

#[test]
fn refusal_extra_ace_without_a_super_and_proceed_at_the_hand_limit() {
    // Given 2-2 with no multi-Ace super revealed,
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    // When Aki puts out an extra Ace, nothing waits for it;
    t.refused_then_overridden(
        Move::ExtraAce {
            player: 0,
            card: a("AS"),
        },
        "yomi.extra-aces",
        &["Aki has no super move waiting"],
        &["Aki には追加のA札を待つ技がありません"],
    );
    assert_eq!(t.hand(0), 5);
    // Given the hand limit step (5-7) with Ben over 12 cards,
    let mut t = Table::new();
    t.adjust(Some(1), "hand", 14);
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::HandLimit);
    // going on names Ben and the limit,
    t.refused_then_overridden(
        Move::Proceed {},
        "yomi.hand-limit",
        &["Ben still holds more cards than the hand limit"],
        &["Ben の手札はまだ手札制限を超えています"],
    );
    // and overridden, turn 2 begins with the cards kept.
    assert_eq!(t.m.state().turn, 2);
}

// ---------------------------------------------------------------------------------------------
// 2-2 / 2-4: a revealed card stays on the table

#[test]
fn refusal_taking_back_a_revealed_card_before_the_combat_is_decided() {
    // Given both cards face down and Aki's 5♠ revealed, Ben's still face down (2-2),
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 0,
        card: a("5S"),
        end: T,
    });
    assert_eq!(t.step(), Step::Reveal);
    // When Aki takes the revealed 5♠ back, it is refused: a revealed card stays and the combat
    // is decided by it (2-4),
    t.refused_then_overridden(
        Move::Rechoose { player: 0 },
        "yomi.revealed-stays",
        &["Aki", "takes back 5S", "already revealed", "(2-4)"],
        &["Aki", "5S", "表に返した札は場に残り", "（2-4）"],
    );
    let v = &t.m.entries().last().unwrap().effect;
    let cards::matches::EntryEffect::Overridden(vs) = v else {
        panic!("{v:?}")
    };
    assert!(
        vs[0]
            .reference
            .contains("2-4. 勝敗決定「出した札によって戦闘の勝敗を決める。」")
    );
    // and overridden, the 5♠ is back in hand and Aki chooses again at 2-1:
    assert_eq!(t.step(), Step::Select);
    assert_eq!(t.hand(0), 7);
    assert_eq!(t.m.state().players[0].table, Vec::<String>::new());
    // his new choice, the 4♦ throw, decides the combat against Ben's 9♠ block.
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::Reveal {
        player: 0,
        card: a("4D"),
        end: T,
    });
    t.play(Move::Reveal {
        player: 1,
        card: b("9S"),
        end: BOT,
    });
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Throw
        }
    );
}

#[test]
fn refusal_taking_back_a_revealed_card_after_the_combat_is_decided() {
    // Given Aki's 5♠ attack beat Ben's 5♦ throw (the combat is decided),
    let mut t = Table::new();
    t.combat(Some(("5S", T)), Some(("5D", T)));
    t.play(Move::NoEscape { player: 1 });
    assert_eq!(t.step(), Step::Combo);
    let hand = t.hand(0);
    // When Aki takes the 5♠ back, it is refused with the turn named,
    t.refused_then_overridden(
        Move::Rechoose { player: 0 },
        "yomi.revealed-stays",
        &["Aki", "takes back 5S", "combat of turn 1", "(5-3)"],
        &["Aki", "ターン1", "5S", "（5-3）"],
    );
    // and overridden, the card is in hand again while the combat stands as decided.
    assert_eq!(t.hand(0), hand + 1);
    assert_eq!(
        t.result(),
        CombatResult::Won {
            winner: 0,
            by: Kind::Attack
        }
    );
    // A second take-back has nothing left on the table: meaningless.
    assert!(matches!(
        t.try_play(Move::Rechoose { player: 0 }),
        Err(Rejection::Impossible(_))
    ));
}

// ---------------------------------------------------------------------------------------------
// Every rule's sentence names its cause (player, card, number), in both languages

#[test]
fn sentence_rechoose_names_both_players() {
    // Given Aki's card face down and no "no card" from Ben,
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 0 });
    t.refused_then_overridden(
        Move::Rechoose { player: 0 },
        "yomi.rechoose",
        &["Aki may choose again only after Ben declared \"no card\""],
        &["Aki が選び直せるのは、Ben が「ノーカード」を宣言した後だけです"],
    );
    assert_eq!(t.hand(0), 7);
}

#[test]
fn sentence_not_a_combat_move_names_the_player_card_and_end() {
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.refused_then_overridden(
        Move::Reveal {
            player: 0,
            card: a("QC"),
            end: BOT,
        },
        "yomi.not-a-combat-move",
        &["Aki reveals the bottom end of QC, an ability"],
        &["Aki が表にした QC の下側は能力"],
    );
}

#[test]
fn sentence_extra_aces_names_the_card_that_is_no_ace() {
    let mut t = Table::new();
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 0,
        card: a("AH"),
        end: T,
    });
    t.play(Move::Reveal {
        player: 1,
        card: b("9S"),
        end: T,
    });
    t.refused_then_overridden(
        Move::ExtraAce {
            player: 0,
            card: a("2S"),
        },
        "yomi.extra-aces",
        &["Aki puts out 2S as an extra Ace: it is not an Ace"],
        &["Aki が追加のA札として出した 2S はA札ではありません"],
    );
}

#[test]
fn sentence_extra_aces_names_the_aces_missing() {
    // Given Aki has discarded three of his four Aces (overridden at 2-1), only A♥ is left,
    let mut t = Table::new();
    for card in ["AS", "AD", "AC"] {
        t.override_play(Move::Discard {
            player: 0,
            cards: vec![a(card)],
        });
    }
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    // When he reveals the Double Ace, which needs one more Ace, he has none: refused.
    t.refused_then_overridden(
        Move::Reveal {
            player: 0,
            card: a("AH"),
            end: T,
        },
        "yomi.extra-aces",
        &[
            "Double Ace needs 2 Aces in all",
            "Aki has only 0 other Ace(s)",
        ],
        &[
            "Double Ace にはA札が合計2枚必要",
            "Aki の未使用のほかのA札は0枚だけ",
        ],
    );
}

#[test]
fn sentence_combo_move_names_the_kind_in_japanese() {
    let mut t = Table::new();
    t.combat(Some(("QS", T)), Some(("10D", T)));
    t.play(Move::NoEscape { player: 1 });
    // A block end is 防御 in Japanese, not "block".
    t.refused_then_overridden(
        Move::Combo {
            player: 0,
            card: a("3S"),
            end: BOT,
        },
        "yomi.combo-move",
        &["the bottom end of 3S that Aki plays is a block"],
        &["Aki が出した 3S の下側は防御です"],
    );
    // A Joker is no attack or throw either; overridden it hits for nothing.
    let hp = t.hp(1);
    t.refused_then_overridden(
        Move::Combo {
            player: 0,
            card: a("JK"),
            end: T,
        },
        "yomi.combo-move",
        &["Joker that Aki plays is a Joker"],
        &["Aki が出した Joker はジョーカーです"],
    );
    t.play(Move::EndCombo { player: 0 });
    assert_eq!(t.hp(1), hp - 4);
}

#[test]
fn sentence_pumps_and_combo_limit_name_the_numbers() {
    let mut t = Table::new();
    t.combat(Some(("QS", T)), Some(("10D", T)));
    t.play(Move::NoEscape { player: 1 });
    t.refused_then_overridden(
        Move::Pump {
            player: 0,
            cards: vec![a("2S"), a("3S")],
        },
        "yomi.pump-cost",
        &["A pump of Attack QS costs 1 card(s), not 2"],
        &["Attack QS のパンプアップのコストは1枚です（2枚ではありません）"],
    );
    t.refused_then_overridden(
        Move::Combo {
            player: 0,
            card: a("QH"),
            end: T,
        },
        "yomi.combo-limit",
        &["Aki's combo would cost 11 combo points; the limit is 10"],
        &["Aki のコンボはコンボポイント11になります。上限は10です"],
    );
    t.refused_then_overridden(
        Move::Pump {
            player: 0,
            cards: vec![a("4S")],
        },
        "yomi.no-pump",
        &["Heavy has no pump"],
        &["Heavy にはパンプアップがありません"],
    );
}

#[test]
fn sentence_dodge_retaliation_names_the_player() {
    let mut t = Table::new();
    t.combat(Some(("2H", BOT)), Some(("9S", T)));
    t.play(Move::Combo {
        player: 0,
        card: a("6S"),
        end: T,
    });
    t.refused_then_overridden(
        Move::Combo {
            player: 0,
            card: a("7S"),
            end: T,
        },
        "yomi.dodge-retaliation",
        &["one attack or throw only; Aki already did"],
        &["打撃か投げの1回だけです。Aki はすでに反撃しました"],
    );
}

#[test]
fn sentence_searches_power_ups_and_open_searches_name_their_cause() {
    let mut t = Table::new();
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    assert_eq!(t.step(), Step::PowerUp);
    t.refused_then_overridden(
        Move::Search {
            player: 0,
            card: a("2H"),
            from: Pile::Deck,
        },
        "yomi.search-not-ace",
        &["Aki searches for 2H", "it is not an Ace"],
        &["Aki が探した 2H はAではありません"],
    );
    t.refused_then_overridden(
        Move::Search {
            player: 0,
            card: a("AS"),
            from: Pile::Deck,
        },
        "yomi.search-not-owed",
        &["Aki searches for AS, but has no Ace search open"],
        &["Aki が AS を探しましたが、いまAを探す権利はありません"],
    );
    t.refused_then_overridden(
        Move::PowerUp {
            player: 0,
            cards: vec![a("7S"), a("8S")],
        },
        "yomi.power-up-rank",
        &[
            "Aki powers up with cards of different ranks",
            "these are 7, 8",
        ],
        &[
            "Aki のパワーアップのカードは数値がそろっていません",
            "これらは 7、8 です",
        ],
    );
    t.refused_then_overridden(
        Move::PowerUp {
            player: 0,
            cards: vec![a("9S")],
        },
        "yomi.power-up-size",
        &["Aki powers up with 1 card(s)"],
        &["Aki のパワーアップは1枚です"],
    );
    // The overridden pair owes Aki an Ace: going on before he searches or gives it up is
    // refused.
    t.refused_then_overridden(
        Move::Proceed {},
        "yomi.ace-search-open",
        &["Aki may still search 1 Ace(s)"],
        &["Aki はまだAを1枚探して手札に加えられます"],
    );
}

#[test]
fn sentence_power_up_ranks_in_japanese() {
    // Given the power-up step, when Aki discards a Jack and a King,
    let mut t = Table::new();
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.refused_then_overridden(
        Move::PowerUp {
            player: 0,
            cards: vec![a("JS"), a("KS"), a("JK")],
        },
        "yomi.power-up-rank",
        &["these are J, K, Joker"],
        &["これらは ジャック、キング、ジョーカー です"],
    );
}

#[test]
fn sentence_hand_limit_names_the_counts() {
    let mut t = Table::new();
    t.adjust(Some(0), "hand", 15);
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.play(Move::Proceed {});
    assert_eq!(t.step(), Step::HandLimit);
    t.refused_then_overridden(
        Move::Discard {
            player: 0,
            cards: vec![a("3S"), a("4S"), a("5S")],
        },
        "yomi.hand-limit",
        &["Aki holds 14 cards: discard down to 12 (2 card(s)), not 3"],
        &["Aki の手札は14枚です：12枚まで（2枚）捨ててください。3枚ではありません"],
    );
}

#[test]
fn sentence_effect_timing_names_the_change_and_the_step() {
    let mut t = Table::new();
    // Combo damage at 2-1 is before the combat reveal:
    t.refused_then_overridden(
        Move::Effect {
            player: 0,
            hp: 0,
            opp_hp: 0,
            draw: 0,
            speed: 0,
            combo_damage: 5,
            note: String::new(),
        },
        "yomi.effect-timing",
        &["Aki's combo damage of 5 is added at turn 1 2-1"],
        &["Aki のコンボダメージ（5）はターン1 2-1です"],
    );
    // a speed change after 2-4 comes after the combat winner was decided.
    t.combat(Some(("2S", BOT)), Some(("2S", BOT)));
    t.refused_then_overridden(
        Move::Effect {
            player: 1,
            hp: 0,
            opp_hp: 0,
            draw: 0,
            speed: -10,
            combo_damage: 0,
            note: String::new(),
        },
        "yomi.effect-timing",
        &["Ben's speed change of -10 comes after the combat winner was decided"],
        &["Ben の速度の変更（-10）は戦闘の勝敗が決まった後です"],
    );
}

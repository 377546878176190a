//! Space Junk scenarios in given / when / then form: every worked example of
//! `rules/space-junk.md` §11, a six-player six-round match, each refusal rule, each house-rule
//! setting and the documented demo script.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use cards::catalogue::Catalogue;
use cards::core::{DieSource, GameId, Outcome, Roll, TrackerId};
use cards::game::{MatchHeader, PlayerConfig};
use cards::games::space_junk::{Move, Place, Space, SpaceJunk, State, Step};
use cards::matches::{EntryEffect, Input, Match, Rejection};
use serde_json::json;

const NAMES: [&str; 6] = ["Aki", "Ben", "Cho", "Dai", "Emi", "Fay"];

/// A test catalogue with exact numbers. Characters `Cmas` have Move m, Attack a, Search s; `CU`
/// (M2 A2 S2) has an ability usable once. Junk is named after its values (see below); `Jnn` are
/// fillers worth 1 fame and nothing else.
fn catalogue() -> Catalogue {
    let mut t = String::from(
        "format = 1\ngame = \"space-junk\"\n[set]\nid = \"test\"\nname_en = \"Test\"\nname_ja = \"テスト\"\n",
    );
    let mut card = |id: &str, body: &str| {
        t.push_str(&format!(
            "[[cards]]\nid = \"{id}\"\nname_ja = \"{id}\"\nname_en = \"{id}\"\n{body}\n"
        ));
    };
    for (id, m, a, s) in [
        ("C111", 1, 1, 1),
        ("C211", 2, 1, 1),
        ("C213", 2, 1, 3),
        ("C221", 2, 2, 1),
        ("C222", 2, 2, 2),
        ("C333", 3, 3, 3),
        ("D222", 2, 2, 2),
    ] {
        card(
            id,
            &format!("kind = \"character\"\nmove = {m}\nattack = {a}\nsearch = {s}"),
        );
    }
    card(
        "CU",
        "kind = \"character\"\nmove = 2\nattack = 2\nsearch = 2\nability_uses = 1\ntext = \"Once per game: +2 fame.\"",
    );
    let mut junk = |id: &str, body: &str, fame: i32| {
        card(id, &format!("kind = \"junk\"\n{body}\nfame = {fame}"));
    };
    junk("F121", "move = 1\nattack = 2\nsearch = 1", 1);
    junk("M2A3", "move = 2\nattack = 3", 1);
    junk("M1", "move = 1", 1);
    junk("A3", "attack = 3", 1);
    junk("A3B", "attack = 3", 1);
    junk("S2", "search = 2", 1);
    junk("S2B", "search = 2", 1);
    junk("R1", "ram = true", 1);
    junk("SA", "star_attack = true", 1);
    junk("SM", "star_move = true", 1);
    junk("SS", "star_search = true", 1);
    junk("NEG", "move = -3", 0);
    junk("T1", "move = 3", 5);
    junk("T2", "attack = 3", 4);
    junk("T3", "search = 3", 4);
    junk("T4", "move = 2\nattack = 2\nsearch = 2", 0);
    junk("U1", "move = 3", 6);
    junk("U2", "attack = 3", 4);
    junk("U3", "search = 4", 4);
    junk("U4", "move = 3", 0);
    junk("U5", "attack = 2", 0);
    junk("K1", "move = 5", 5);
    junk("K2", "attack = 5", 5);
    junk("L1", "move = 4", 5);
    junk("L2", "attack = 4", 5);
    for i in 1..=30 {
        junk(&format!("J{i:02}"), "", 1);
    }
    Catalogue::load("test.toml", &t).expect("test catalogue loads")
}

struct Table {
    m: Match<SpaceJunk>,
}

fn mv(mv: Move) -> Input<Move> {
    Input::Move {
        mv,
        override_reason: None,
    }
}

impl Table {
    /// Given: players with these characters (Aki, Ben, … in seat order), the whole test junk deck,
    /// these house rules; Aki is the first player.
    fn new(characters: &[&str], rules: serde_json::Value) -> Table {
        let header = MatchHeader {
            game: GameId::SpaceJunk,
            catalogue: "test".into(),
            players: characters
                .iter()
                .enumerate()
                .map(|(i, c)| PlayerConfig {
                    name: NAMES[i].into(),
                    deck_name: "character".into(),
                    deck: vec![(*c).to_owned()],
                })
                .collect(),
            rules,
        };
        let mut t = Table {
            m: Match::new(header, &catalogue()).expect("legal setup"),
        };
        t.play(Move::FirstPlayer { player: 0 });
        t
    }

    fn two(a: &str, b: &str) -> Table {
        Table::new(&[a, b], serde_json::Value::Null)
    }

    fn input(&mut self, input: Input<Move>) -> Result<(), Rejection> {
        let p = self.m.prepare(&input)?;
        assert!(self.m.commit(p));
        Ok(())
    }

    fn play(&mut self, m: Move) {
        let text = format!("{m:?}");
        self.input(mv(m))
            .unwrap_or_else(|e| panic!("{text}: {e} at {:?}", self.m.state().step));
    }

    /// Applies a move although it breaks a rule (the players agreed).
    fn force(&mut self, m: Move) {
        self.input(Input::Move {
            mv: m,
            override_reason: Some("test setup".into()),
        })
        .unwrap();
    }

    /// The rule ids a move is refused for (it is not applied).
    fn refused(&mut self, m: Move) -> Vec<String> {
        match self.m.prepare(&mv(m)) {
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

    /// Then: the move is refused by `rule` (not applied), and both of its sentences hold every
    /// needle: the actual cause, named.
    fn names(&mut self, m: Move, rule: &str, en: &[&str], ja: &[&str]) {
        let violations = match self.m.prepare(&mv(m)) {
            Err(Rejection::Refused { violations }) => violations,
            other => panic!("expected a refusal by {rule}, got {other:?}"),
        };
        let v = common::names_the_cause(&violations, rule, en, ja);
        common::assert_japanese(
            &v.sentence_ja,
            &common::quoted_names(self.m.header(), &catalogue()),
        );
    }

    /// Then: the move is refused by `rule`, whose sentences name the cause (`en`, `ja`); with an
    /// override it is applied, the entry records the broken rules, and the log replays to the
    /// live state.
    fn refused_then_overridden(&mut self, m: Move, rule: &str, en: &[&str], ja: &[&str]) {
        common::refused_then_overridden(&mut self.m, &catalogue(), m, "test setup", rule, en, ja);
    }

    fn roll(&mut self, value: u8) -> EntryEffect {
        let p = self
            .m
            .prepare(&Input::Roll {
                roll: Roll {
                    sides: 6,
                    value,
                    source: DieSource::Typed,
                    seat: None,
                    throw: None,
                },
            })
            .unwrap();
        let effect = p.effect().clone();
        assert!(self.m.commit(p));
        effect
    }

    fn undo(&mut self) {
        self.input(Input::Undo { reason: None }).unwrap();
    }

    fn s(&self) -> &State {
        self.m.state()
    }

    fn step(&self) -> Step {
        self.s().step
    }

    /// A number of the whole game (no player), as `expect NAME VALUE` reads it.
    fn game_tracker(&self, name: &str) -> i32 {
        let id = TrackerId::named(None, name);
        self.m
            .trackers()
            .into_iter()
            .find(|t| t.id == id)
            .unwrap_or_else(|| panic!("no tracker {id}"))
            .value
    }

    fn tracker(&self, seat: usize, name: &str) -> i32 {
        let id = TrackerId::named(Some(seat), name);
        self.m
            .trackers()
            .into_iter()
            .find(|t| t.id == id)
            .unwrap_or_else(|| panic!("no tracker {id}"))
            .value
    }

    /// The quiet default for the current step: move in the same ring, no ram, no attack, draw
    /// nothing (agreed), finish the search, end the cameo.
    fn auto(&mut self) {
        match self.step() {
            Step::Move { seat } => {
                let ring = self.s().players[seat].ring;
                self.play(Move::MoveShip {
                    player: seat,
                    ring,
                    spaces: None,
                })
            }
            Step::Ram { seat } => self.play(Move::NoRam { player: seat }),
            Step::RamTake { winner, .. } => self.play(Move::NoTake { player: winner }),
            Step::Attack { seat } => self.play(Move::NoAttack { player: seat }),
            Step::Search { seat } => self.force(Move::Draw {
                player: seat,
                cards: vec![],
            }),
            Step::Rebuild { seat } => self.play(Move::FinishSearch { player: seat }),
            Step::Cameo => self.play(Move::EndRound {}),
            other => panic!("auto cannot play {other:?}"),
        }
    }

    fn until(&mut self, done: impl Fn(&State) -> bool) {
        for _ in 0..500 {
            if done(self.s()) {
                return;
            }
            self.auto();
        }
        panic!("never reached the wanted step");
    }

    /// At `seat`'s search: draws these cards (agreed), puts them in these spaces, the rest to cargo.
    fn build(&mut self, seat: usize, ship: &[(&str, Space)], cargo: &[&str]) {
        self.until(|s| s.step == Step::Search { seat });
        let cards: Vec<String> = ship
            .iter()
            .map(|(c, _)| (*c).to_owned())
            .chain(cargo.iter().map(|c| (*c).to_owned()))
            .collect();
        self.force(Move::Draw {
            player: seat,
            cards,
        });
        for (card, space) in ship {
            self.play(Move::Equip {
                player: seat,
                card: (*card).into(),
                space: *space,
            });
        }
        self.play(Move::FinishSearch { player: seat });
    }
}

use Space::{Fuselage, Slot};

/// The ship of worked example 1: fuselage M1/A2/S1, Move slots M2(A3) and M1, Attack A3, Search S2.
fn example_1_ship() -> Vec<(&'static str, Space)> {
    vec![
        ("F121", Fuselage),
        ("M2A3", Slot(1)),
        ("M1", Slot(2)),
        ("A3", Slot(3)),
        ("S2", Slot(5)),
    ]
}

// ------------------------------------------------------------------ §11 worked examples

#[test]
fn example_1_stat_computation() {
    // Given Aki's character M2/A1/S1 and the ship of example 1
    let mut t = Table::two("C211", "C222");
    t.build(0, &example_1_ship(), &[]);
    // Then Move = 2+1+2+1 = 6, Attack = 1+2+3 = 6 (the Move-slot card's A3 is ignored), Search = 1+1+2 = 4
    assert_eq!(
        (
            t.tracker(0, "move"),
            t.tracker(0, "attack"),
            t.tracker(0, "search")
        ),
        (6, 6, 4)
    );
}

#[test]
fn example_2_attack_hits_and_a_repeated_location() {
    // Given Aki with Attack 6 and Ben with a card in slot 3, in round 2's attack phase
    let mut t = Table::two("C211", "C222");
    t.build(0, &example_1_ship(), &[]);
    t.build(1, &[("A3B", Slot(3))], &[]);
    t.until(|s| s.step == Step::Attack { seat: 0 });
    assert_eq!(t.s().round, 2);
    let fame0 = t.tracker(0, "fame");
    // When Aki attacks at range 2 and rolls 5: 5 + 6 − 2 = 9 → 1 hit
    t.play(Move::Attack {
        player: 0,
        target: 1,
        range: 2,
    });
    t.roll(5);
    // Then Aki gains 3 fame at once and rolls one location die
    assert_eq!(t.step(), Step::HitDice);
    assert_eq!(t.tracker(0, "fame"), fame0 + 3);
    assert_eq!(t.m.context().prompts.len(), 1);
    t.roll(6); // slot 6 is empty: nothing is damaged
    assert_eq!(t.s().last_attack.as_ref().unwrap().hits, 1);
    assert!(t.s().damaged.is_empty());

    // Given round 3's attack phase
    t.until(|s| s.round == 3 && s.step == Step::Attack { seat: 0 });
    // When Aki attacks at range 0 and rolls 4: 10 → 2 hits, locations 3 and 3
    t.play(Move::Attack {
        player: 0,
        target: 1,
        range: 0,
    });
    t.roll(4);
    assert_eq!(t.m.context().prompts.len(), 2);
    t.roll(3);
    t.roll(3);
    // Then slot 3 is damaged once, the second hit is ignored but scored: +6 fame
    let report = t.s().last_attack.clone().unwrap();
    assert_eq!((report.total, report.hits), (10, 2));
    // The numbers compared are trackers the table (and `expect`) can read.
    assert_eq!(
        (t.game_tracker("attack-total"), t.game_tracker("hits")),
        (10, 2)
    );
    assert_eq!(t.tracker(1, "damaged"), 1);
    assert_eq!(t.tracker(0, "boosted-attack"), t.tracker(0, "attack"));
    assert_eq!(report.damaged, vec!["A3B".to_owned()]);
    assert_eq!(t.s().damaged, vec!["A3B".to_owned()]);
    assert_eq!(t.tracker(0, "fame"), fame0 + 3 + 6);
    // The damaged card still works this round and goes to the cooler after Ben's draw.
    assert_eq!(t.tracker(1, "attack"), 5);
    t.until(|s| s.step == Step::Rebuild { seat: 1 });
    assert_eq!(t.s().place("A3B"), Some(Place::Discard));
    assert_eq!(t.tracker(1, "attack"), 2);
}

#[test]
fn example_3_attack_boost_after_the_roll() {
    // Given Aki with Attack 6 and a *-Attack card in a Search slot
    let mut t = Table::two("C211", "C222");
    t.build(
        0,
        &[("F121", Fuselage), ("A3", Slot(3)), ("SA", Slot(5))],
        &[],
    );
    t.until(|s| s.step == Step::Attack { seat: 0 });
    assert_eq!(t.tracker(0, "attack"), 6);
    let fame0 = t.tracker(0, "fame");
    // When Aki rolls 3 at range 0: 9 → 1 hit so far; the app waits for boosts
    t.play(Move::Attack {
        player: 0,
        target: 1,
        range: 0,
    });
    t.roll(3);
    assert_eq!(t.step(), Step::AttackBoost);
    // and Aki damages the *-Attack card: +4 → 13 → 2 hits
    t.play(Move::Boost {
        player: 0,
        card: "SA".into(),
    });
    t.play(Move::ConfirmHits { player: 0 });
    // Then Aki scores +6 fame
    assert_eq!(t.tracker(0, "fame"), fame0 + 6);
    t.roll(1);
    t.roll(2);
    assert_eq!(t.s().last_attack.as_ref().unwrap().total, 13);
    // and the card stays on the ship, damaged, until Aki's search, where it goes to the cooler
    assert!(t.s().is_damaged("SA"));
    assert_eq!(t.s().place("SA"), Some(Place::Ship(0, Slot(5))));
    t.until(|s| s.step == Step::Rebuild { seat: 0 });
    assert_eq!(t.s().place("SA"), Some(Place::Discard));
}

#[test]
fn example_4_ramming_tie_then_win_and_no_ram_in_round_1() {
    // Given Aki (1 R card) and Ben (an Attack-slot card), both Move 2, ending on the same space
    let mut t = Table::two("C222", "D222");
    t.play(Move::MoveShip {
        player: 0,
        ring: 1,
        spaces: None,
    });
    t.play(Move::MoveShip {
        player: 1,
        ring: 1,
        spaces: None,
    });
    // When Ben tries to ram in round 1, it is refused and not offered
    assert_eq!(t.step(), Step::Ram { seat: 1 });
    assert_eq!(
        t.refused(Move::Ram {
            player: 1,
            target: 0
        }),
        ["space-junk.ram-first-round"]
    );
    t.names(
        Move::Ram {
            player: 1,
            target: 0,
        },
        "space-junk.ram-first-round",
        &["Ben rams Aki in round 1: there is no ramming before round 2"],
        &["Ben が Aki にラウンド1で体当たりしました：体当たりはラウンド2からです"],
    );
    assert!(
        t.m.legal_moves()
            .iter()
            .all(|(m, _)| !matches!(m, Move::Ram { .. }))
    );
    t.play(Move::NoRam { player: 1 });
    t.build(0, &[("R1", Slot(5))], &[]);
    t.build(1, &[("A3", Slot(3))], &[]);
    // Round 2: Ben moves first (2 → 4), then Aki ends on Ben's space and rams
    t.until(|s| s.step == Step::Move { seat: 0 } && s.round == 2);
    t.play(Move::MoveShip {
        player: 0,
        ring: 1,
        spaces: None,
    });
    assert_eq!(t.step(), Step::Ram { seat: 0 });
    t.play(Move::Ram {
        player: 0,
        target: 1,
    });
    // When Aki rolls 3 (3+1+1 = 5) and Ben rolls 5 (5): a tie, nothing happens
    t.roll(3);
    t.roll(5);
    let r = t.s().last_ram.clone().unwrap();
    assert_eq!((r.rammer_total, r.target_total, r.winner), (5, 5, None));
    assert_eq!(
        (
            t.game_tracker("ram-rammer-total"),
            t.game_tracker("ram-target-total"),
            t.tracker(0, "r-cards")
        ),
        (5, 5, 1)
    );
    assert_eq!(t.step(), Step::Attack { seat: 1 });
    // Re-run with Ben rolling 4: 5 > 4, Aki takes Ben's Attack-slot card
    t.undo();
    t.undo();
    t.roll(3);
    t.roll(4);
    assert_eq!(
        t.step(),
        Step::RamTake {
            winner: 0,
            loser: 1
        }
    );
    let attack_before = (t.tracker(0, "attack"), t.tracker(1, "attack"));
    t.play(Move::TakeJunk {
        player: 0,
        card: "A3".into(),
    });
    // Then the card is equipped in Aki's free Attack slot and both ships recompute
    assert_eq!(t.s().place("A3"), Some(Place::Ship(0, Slot(3))));
    assert_eq!(
        (t.tracker(0, "attack"), t.tracker(1, "attack")),
        (attack_before.0 + 3, attack_before.1 - 3)
    );
}

#[test]
fn a_ram_won_by_the_target_and_a_full_slot_sends_the_card_to_cargo() {
    // Given Ben with 1 R card and Aki with both Move slots full
    let mut t = Table::two("C222", "D222");
    t.build(0, &[("M1", Slot(1)), ("M2A3", Slot(2))], &[]);
    t.build(1, &[("R1", Slot(5)), ("SM", Slot(6)), ("T1", Slot(1))], &[]);
    // make both land together in round 2: Ben moves 2+3 = 5, Aki 2+1+2 = 5, from the same spot
    t.until(|s| s.round == 2 && s.step == Step::Move { seat: 1 });
    t.play(Move::MoveShip {
        player: 1,
        ring: 1,
        spaces: None,
    });
    let ben = t.s().players[1].position;
    t.play(Move::MoveShip {
        player: 0,
        ring: 1,
        spaces: None,
    });
    assert_eq!(t.s().players[0].position, ben);
    t.play(Move::Ram {
        player: 0,
        target: 1,
    });
    // When Aki rolls 2 (2+1 = 3) and Ben 2 (2 + 1 R = 3)… a tie; so Ben rolls 3 instead (3+1 = 4)
    t.roll(2);
    t.roll(3);
    // Then Ben wins and may take one of Aki's slot cards; Ben's Move slot 2 is free
    assert_eq!(
        t.step(),
        Step::RamTake {
            winner: 1,
            loser: 0
        }
    );
    t.play(Move::TakeJunk {
        player: 1,
        card: "M2A3".into(),
    });
    assert_eq!(t.s().place("M2A3"), Some(Place::Ship(1, Slot(2))));
    // The turn order goes on after the rammer.
    assert_eq!(t.step(), Step::Attack { seat: 1 });
}

#[test]
fn example_5_search_cap() {
    // Given a ship with Search 5 (character S3 + S2) and a *-Search card, in a ring with limit 3
    for (limit, plain, boosted) in [(3, 3, 3), (6, 5, 6)] {
        let mut t = Table::new(&["C213", "C222"], json!({ "search_limit_inner": limit }));
        t.build(0, &[("S2", Slot(5)), ("SS", Slot(6))], &[]);
        t.until(|s| s.step == Step::Search { seat: 0 });
        assert_eq!(t.tracker(0, "search"), 5);
        // Then the draw is min(Search, limit)
        assert_eq!(t.s().draw_count(0), plain, "limit {limit}");
        // When the *-Search card is damaged: Search 7, still capped
        t.play(Move::Boost {
            player: 0,
            card: "SS".into(),
        });
        assert_eq!(t.s().draw_count(0), boosted, "limit {limit}");
        // and drawing another number is refused
        let deck: Vec<String> = t.s().deck.iter().take(boosted + 1).cloned().collect();
        assert_eq!(
            t.refused(Move::Draw {
                player: 0,
                cards: deck.clone()
            }),
            ["space-junk.search-count"]
        );
        t.names(
            Move::Draw {
                player: 0,
                cards: deck.clone(),
            },
            "space-junk.search-count",
            &[
                &format!("Aki draws {boosted} card(s) (Search 7, ring 1 limit {limit}"),
                &format!("not {}", boosted + 1),
            ],
            &[&format!(
                "Aki が引くのは{boosted}枚です（探索7、リング1の上限{limit}"
            )],
        );
        t.play(Move::Draw {
            player: 0,
            cards: deck[..boosted].to_vec(),
        });
        assert_eq!(t.s().players[0].drawn.len(), boosted);
    }
}

#[test]
fn example_6_a_damaged_search_card_still_counts_for_the_draw() {
    // Given Ben with Search 4 (character S2 + a Search-slot card worth 2), ring limit 5
    let mut t = Table::new(&["C211", "C222"], json!({ "search_limit_inner": 5 }));
    t.build(0, &example_1_ship(), &[]);
    t.build(1, &[("S2B", Slot(5))], &[]);
    // When Aki's attack damages that card in round 2 (roll 4 + Attack 6 = 10: 2 hits, both on slot 5)
    t.until(|s| s.step == Step::Attack { seat: 0 });
    t.play(Move::Attack {
        player: 0,
        target: 1,
        range: 0,
    });
    t.roll(4);
    t.roll(5);
    t.roll(5);
    assert!(t.s().is_damaged("S2B"));
    // Then Ben still draws 4
    t.until(|s| s.step == Step::Search { seat: 1 });
    assert_eq!(t.s().draw_count(1), 4);
    let cards: Vec<String> = t.s().deck.iter().take(4).cloned().collect();
    t.play(Move::Draw { player: 1, cards });
    // and after the draw the card is discarded: Search 2 before the rebuild
    assert_eq!(t.s().place("S2B"), Some(Place::Discard));
    assert_eq!(t.tracker(1, "search"), 2);
}

#[test]
fn example_7_orbit_fame() {
    // Given the inner ring has 16 spaces; Aki at 12 with Move 6, Ben at 12 with Move 22
    let mut t = Table::two("C222", "D222");
    for (seat, mv) in [(0, 6), (1, 22)] {
        t.input(Input::Adjust {
            tracker: TrackerId::named(Some(seat), "position"),
            value: 12,
            reason: "example".into(),
        })
        .unwrap();
        t.input(Input::Adjust {
            tracker: TrackerId::named(Some(seat), "move"),
            value: mv,
            reason: "example".into(),
        })
        .unwrap();
    }
    // When both move
    t.auto();
    t.auto();
    // Then Aki is at 2 with one orbit (+5), Ben at 2 with two (+10)
    assert_eq!(
        (
            t.tracker(0, "position"),
            t.tracker(0, "orbits"),
            t.tracker(0, "fame")
        ),
        (2, 1, 5)
    );
    assert_eq!(
        (
            t.tracker(1, "position"),
            t.tracker(1, "orbits"),
            t.tracker(1, "fame")
        ),
        (2, 2, 10)
    );
}

/// Plays to the last cameo with Aki's and Ben's junk of example 8, their fame tracks set.
fn example_8(extra_for_ben: &[&str], rules: serde_json::Value) -> Table {
    let mut t = Table::new(&["C222", "D222"], rules);
    t.build(
        0,
        &[("T1", Slot(1)), ("T2", Slot(3)), ("T4", Fuselage)],
        &["T3"],
    );
    let mut ben_cargo = vec!["U2", "U3", "U4"];
    ben_cargo.extend_from_slice(extra_for_ben);
    t.build(1, &[("U1", Slot(1))], &ben_cargo);
    t.until(|s| s.round == 6 && s.step == Step::Cameo);
    for (seat, fame) in [(0, 31), (1, 30)] {
        t.input(Input::Adjust {
            tracker: TrackerId::named(Some(seat), "fame"),
            value: fame,
            reason: "example 8".into(),
        })
        .unwrap();
    }
    t
}

#[test]
fn example_8_final_scoring_and_the_best_ship_tie_break() {
    // Given A: track 31 + ship 9 + cargo 4 = 44, B: 30 + 6 + 8 = 44
    let mut t = example_8(&[], serde_json::Value::Null);
    assert_eq!(t.m.outcome(), None);
    t.play(Move::EndRound {});
    // Then the totals tie, and the best ships are 21 and 19 → A wins
    assert_eq!((t.s().final_fame(0), t.s().final_fame(1)), (44, 44));
    assert_eq!((t.s().best_ship(0), t.s().best_ship(1)), (21, 19));
    match t.m.outcome() {
        Some(Outcome::Win { winner: 0, reason }) => {
            assert!(reason.contains("best ship"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn example_8_equal_best_ships_share_the_victory() {
    // Given B also holds an A2 card worth 0 fame: B's best ship is 21 too
    let mut t = example_8(&["U5"], serde_json::Value::Null);
    t.play(Move::EndRound {});
    assert_eq!((t.s().best_ship(0), t.s().best_ship(1)), (21, 21));
    // Then the victory is shared
    assert!(
        matches!(t.m.outcome(), Some(Outcome::Draw { ref reason }) if reason.contains("shared"))
    );
}

// ------------------------------------------------------------------ a six-player match

#[test]
fn six_players_play_six_rounds_in_turn_order() {
    // Given six players, Aki first
    let chars = ["C111", "C211", "C213", "C221", "C222", "C333"];
    let mut t = Table::new(&chars, serde_json::Value::Null);
    let total_junk = t.s().deck.len();
    let mut movers: Vec<(u32, usize)> = Vec::new();
    // When every step is played: rings by seat, rams when possible, attacks on the next seat,
    // legal draws, every drawn card equipped in the first free space
    for _ in 0..5000 {
        let s = t.s().clone();
        let dice = ((s.round + s.players.iter().map(|p| p.position).sum::<u32>()) % 6 + 1) as u8;
        match s.step {
            Step::Over => break,
            Step::Move { seat } => {
                movers.push((s.round, seat));
                t.play(Move::MoveShip {
                    player: seat,
                    ring: (seat % 3) as u8 + 1,
                    spaces: None,
                });
            }
            Step::Ram { seat } => match s.ships_here(seat).first() {
                Some(&target) if s.round >= 2 => t.play(Move::Ram {
                    player: seat,
                    target,
                }),
                _ => t.play(Move::NoRam { player: seat }),
            },
            Step::RamTake { winner, loser } => match s.takeable(loser).first() {
                Some(card) => t.play(Move::TakeJunk {
                    player: winner,
                    card: card.clone(),
                }),
                None => t.play(Move::NoTake { player: winner }),
            },
            Step::Attack { seat } => t.play(Move::Attack {
                player: seat,
                target: (seat + 1) % 6,
                range: 1,
            }),
            Step::AttackBoost => t.play(Move::ConfirmHits {
                player: s.active().unwrap(),
            }),
            Step::RamDice | Step::AttackDie | Step::HitDice => {
                let id = t.m.context().prompts[0].id.clone();
                assert_eq!(t.roll(dice), EntryEffect::Fulfilled(id));
            }
            Step::Search { seat } => {
                let n = s.draw_count(seat);
                let cards: Vec<String> = s.deck.iter().chain(&s.discard).take(n).cloned().collect();
                t.play(Move::Draw {
                    player: seat,
                    cards,
                });
            }
            Step::Rebuild { seat } => {
                let p = &s.players[seat];
                let free = Space::ALL.into_iter().find(|sp| p.at(*sp).is_none());
                match (p.drawn.first(), free) {
                    (Some(card), Some(space)) => t.play(Move::Equip {
                        player: seat,
                        card: card.clone(),
                        space,
                    }),
                    _ => t.play(Move::FinishSearch { player: seat }),
                }
            }
            Step::Cameo => t.play(Move::EndRound {}),
            Step::Setup => unreachable!(),
        }
        // Every junk card is in exactly one place.
        let s = t.s();
        let placed =
            s.deck.len() + s.discard.len() + (0..6).map(|p| s.own_junk(p).len()).sum::<usize>();
        assert_eq!(placed, total_junk);
    }
    // Then the game ended after round 6 with an outcome
    assert_eq!((t.s().round, t.step()), (6, Step::Over));
    assert!(t.m.outcome().is_some());
    // and each round's move phase ran clockwise from that round's first player
    for round in 1..=6u32 {
        let order: Vec<usize> = movers
            .iter()
            .filter(|(r, _)| *r == round)
            .map(|(_, s)| *s)
            .collect();
        let first = (round as usize - 1) % 6;
        let expected: Vec<usize> = (0..6).map(|i| (first + i) % 6).collect();
        assert_eq!(order, expected, "round {round}");
    }
    // and fame is never below the track's own count of orbits and hits
    for seat in 0..6 {
        assert!(t.tracker(seat, "fame") >= 5 * t.tracker(seat, "orbits"));
    }
}

// ------------------------------------------------------------------ refusals

#[test]
fn boost_refusals_cargo_star_turn_phase_and_damaged() {
    // Given Aki with SM in slot 1 and SA in cargo, Ben with SS on his ship
    let mut t = Table::two("C222", "D222");
    t.build(0, &[("SM", Slot(1))], &["SA"]);
    t.build(1, &[("SS", Slot(5))], &[]);
    t.until(|s| s.round == 2 && s.step == Step::Move { seat: 0 });
    // A card in cargo cannot be damaged for its boost (and SA has no * in Move)
    let r = t.refused(Move::Boost {
        player: 0,
        card: "SA".into(),
    });
    assert!(r.contains(&"space-junk.boost-cargo".to_owned()), "{r:?}");
    assert!(r.contains(&"space-junk.boost-star".to_owned()), "{r:?}");
    for (rule, en, ja) in [
        (
            "space-junk.boost-cargo",
            "SA (SA) is not on Aki's ship",
            "SA（SA） は Aki の船にありません",
        ),
        (
            "space-junk.boost-star",
            "Aki's SA (SA) has none there",
            "Aki の SA（SA） にはありません",
        ),
    ] {
        t.names(
            Move::Boost {
                player: 0,
                card: "SA".into(),
            },
            rule,
            &[en],
            &[ja],
        );
    }
    // Ben's * card, not on Ben's turn
    assert_eq!(
        t.refused(Move::Boost {
            player: 1,
            card: "SS".into()
        }),
        ["space-junk.boost-star", "space-junk.boost-turn"]
    );
    // Ben's card turned by Aki is not on her own ship
    t.names(
        Move::Boost {
            player: 0,
            card: "SS".into(),
        },
        "space-junk.boost-own-ship",
        &["Aki damages SS (SS) on Ben's ship"],
        &["Aki が Ben の船の SS（SS） を＊ブーストのために損傷させました"],
    );
    t.names(
        Move::Boost {
            player: 1,
            card: "SS".into(),
        },
        "space-junk.boost-turn",
        &["Ben boosts on another player's turn", "it is Aki's turn"],
        &["Ben の番ではありません", "いまは Aki の番です"],
    );
    // Aki's own *-Move card: legal, Move +3, once
    let before = t.s().boosted(0, cards::catalogue::space_junk::Stat::Move);
    t.play(Move::Boost {
        player: 0,
        card: "SM".into(),
    });
    assert_eq!(
        t.s().boosted(0, cards::catalogue::space_junk::Stat::Move),
        before + 3
    );
    assert_eq!(
        t.refused(Move::Boost {
            player: 0,
            card: "SM".into()
        }),
        ["space-junk.boost-damaged"]
    );
    t.names(
        Move::Boost {
            player: 0,
            card: "SM".into(),
        },
        "space-junk.boost-damaged",
        &["SM (SM) is already damaged"],
        &["SM（SM） はすでに損傷している"],
    );
    // After Aki's move, Ben's search boost is out of phase on Ben's turn too
    t.until(|s| s.step == Step::Rebuild { seat: 1 });
    assert_eq!(
        t.refused(Move::Boost {
            player: 1,
            card: "SS".into()
        }),
        ["space-junk.boost-phase"]
    );
}

#[test]
fn movement_must_be_exact() {
    let mut t = Table::two("C222", "D222");
    assert_eq!(
        t.refused(Move::MoveShip {
            player: 0,
            ring: 1,
            spaces: Some(1)
        }),
        ["space-junk.move-exact"]
    );
    t.names(
        Move::MoveShip {
            player: 0,
            ring: 1,
            spaces: Some(1),
        },
        "space-junk.move-exact",
        &["Aki's ship moves", "2 spaces, not 1"],
        &["Aki の船は移動値", "2マス", "1マスではありません"],
    );
    // Out of turn is a rule the table can override; a ring that is not on the board cannot
    // be meant at all.
    t.refused_then_overridden(
        Move::MoveShip {
            player: 1,
            ring: 1,
            spaces: None,
        },
        "space-junk.turn-order",
        &["Aki's turn to move", "not Ben's"],
        &["Aki の移動の番", "Ben の番ではありません"],
    );
    assert_eq!(t.step(), Step::Move { seat: 0 });
    assert!(matches!(
        t.m.prepare(&mv(Move::MoveShip {
            player: 0,
            ring: 4,
            spaces: None
        })),
        Err(Rejection::Impossible(_))
    ));
}

#[test]
fn a_ram_needs_a_ship_on_the_same_space() {
    // Given three ships; Cho sits elsewhere when Aki lands on Ben's space in round 2
    let mut t = Table::new(&["C222", "D222", "C333"], serde_json::Value::Null);
    t.until(|s| s.round == 2 && s.step == Step::Move { seat: 0 });
    t.auto();
    assert_eq!(t.step(), Step::Ram { seat: 0 });
    assert_eq!(
        t.refused(Move::Ram {
            player: 0,
            target: 2
        }),
        ["space-junk.ram-space"]
    );
    t.names(
        Move::Ram {
            player: 0,
            target: 2,
        },
        "space-junk.ram-space",
        &["Cho is not on Aki's space"],
        &["Cho は Aki と同じマスにいません"],
    );
}

#[test]
fn a_ram_winner_takes_a_slot_card_not_the_fuselage() {
    let take_fuselage = |rules: serde_json::Value| {
        let mut t = Table::new(&["C222", "D222"], rules);
        t.build(1, &[("F121", Fuselage)], &[]);
        t.until(|s| s.round == 2 && s.step == Step::Move { seat: 0 });
        // Ben moves 2 + 1 (fuselage) = 3; Aki 2: give Aki +1 Move so they meet
        t.input(Input::Adjust {
            tracker: TrackerId::named(Some(0), "move"),
            value: 3,
            reason: "test".into(),
        })
        .unwrap();
        t.auto();
        t.play(Move::Ram {
            player: 0,
            target: 1,
        });
        t.roll(6);
        t.roll(1);
        t
    };
    // Given the default: the fuselage cannot be taken, and Ben has nothing else: no take step
    let t = take_fuselage(serde_json::Value::Null);
    assert_eq!(t.step(), Step::Attack { seat: 1 });
    // With ram_can_take_fuselage, Aki takes it into his empty fuselage
    let mut t = take_fuselage(json!({"ram_can_take_fuselage": true}));
    assert_eq!(
        t.step(),
        Step::RamTake {
            winner: 0,
            loser: 1
        }
    );
    t.play(Move::TakeJunk {
        player: 0,
        card: "F121".into(),
    });
    assert_eq!(t.s().place("F121"), Some(Place::Ship(0, Fuselage)));
}

#[test]
fn ram_take_refuses_the_fuselage_by_default() {
    // Given Ben has a slot card and a fuselage card, and Aki wins a ram
    let mut t = Table::two("C222", "D222");
    t.build(1, &[("M1", Slot(5)), ("J01", Fuselage)], &[]);
    t.until(|s| s.round == 2 && s.step == Step::Move { seat: 0 });
    t.auto();
    t.play(Move::Ram {
        player: 0,
        target: 1,
    });
    t.roll(6);
    t.roll(1);
    // Then taking the fuselage card is refused, a slot card is fine
    assert_eq!(
        t.refused(Move::TakeJunk {
            player: 0,
            card: "J01".into()
        }),
        ["space-junk.ram-take"]
    );
    t.names(
        Move::TakeJunk {
            player: 0,
            card: "J01".into(),
        },
        "space-junk.ram-take",
        &["not the fuselage (J01 (J01))"],
        &["胴体（J01（J01））ではありません"],
    );
    t.play(Move::TakeJunk {
        player: 0,
        card: "M1".into(),
    });
    // M1 sat in a Search slot: it goes to Aki's Search slot 5
    assert_eq!(t.s().place("M1"), Some(Place::Ship(0, Slot(5))));
}

#[test]
fn the_cooler_is_shuffled_in_only_when_the_deck_runs_out() {
    // Given a deck with cards left and a card in the cooler
    let mut t = Table::two("C222", "D222");
    t.build(0, &[("A3", Slot(3))], &[]);
    t.until(|s| s.round == 2 && s.step == Step::Attack { seat: 1 });
    t.play(Move::Attack {
        player: 1,
        target: 0,
        range: 0,
    });
    t.roll(6); // 6 + 2 = 8: 1 hit
    t.roll(3); // slot 3
    t.until(|s| s.step == Step::Rebuild { seat: 0 });
    assert_eq!(t.s().discard, vec!["A3".to_owned()]);
    t.until(|s| s.step == Step::Search { seat: 1 });
    // When Ben draws the cooler's card while the deck is not empty: refused
    let mut cards: Vec<String> = t.s().deck.iter().take(1).cloned().collect();
    cards.push("A3".into());
    assert_eq!(
        t.refused(Move::Draw { player: 1, cards }),
        ["space-junk.search-reshuffle"]
    );
    let mut cards: Vec<String> = t.s().deck.iter().take(1).cloned().collect();
    cards.push("A3".into());
    let left = t.s().deck.len() - 1;
    t.names(
        Move::Draw { player: 1, cards },
        "space-junk.search-reshuffle",
        &[
            "Ben draws 1 card(s) from the cooler",
            &format!("the deck still holds {left} card(s)"),
        ],
        &[
            "Ben がクーラーから1枚引きました",
            &format!("山札はまだ{left}枚あります"),
        ],
    );
}

#[test]
fn an_empty_deck_is_refilled_from_the_cooler_and_a_short_draw_takes_what_is_left() {
    // Given a junk deck of three cards
    let header = MatchHeader {
        game: GameId::SpaceJunk,
        catalogue: "test".into(),
        players: vec![
            PlayerConfig {
                name: "Aki".into(),
                deck_name: "x".into(),
                deck: vec!["C222".into(), "A3".into(), "M1".into()],
            },
            PlayerConfig {
                name: "Ben".into(),
                deck_name: "x".into(),
                deck: vec!["C222".into(), "S2".into()],
            },
        ],
        rules: serde_json::Value::Null,
    };
    assert!(Match::<SpaceJunk>::new(header.clone(), &catalogue()).is_err()); // a single C222
    let mut header = header;
    header.players[1].deck[0] = "C333".into();
    let mut t = Table {
        m: Match::new(header, &catalogue()).unwrap(),
    };
    t.play(Move::FirstPlayer { player: 0 });
    assert_eq!(t.s().deck, ["A3", "M1", "S2"]);
    // When Aki (Search 2) draws and equips A3 in slot 3
    t.until(|s| s.step == Step::Search { seat: 0 });
    t.play(Move::Draw {
        player: 0,
        cards: vec!["A3".into(), "M1".into()],
    });
    t.play(Move::Equip {
        player: 0,
        card: "A3".into(),
        space: Slot(3),
    });
    t.play(Move::FinishSearch { player: 0 });
    // Then Ben (Search 3) may draw only the one card left
    assert_eq!(t.s().draw_count(1), 1);
    t.play(Move::Draw {
        player: 1,
        cards: vec!["S2".into()],
    });
    t.play(Move::FinishSearch { player: 1 });
    // Ben's attack in round 2 damages A3; after Aki's draw (deck empty) it is in the cooler,
    // and at Ben's search the cooler becomes the new deck.
    t.until(|s| s.round == 2 && s.step == Step::Attack { seat: 1 });
    t.play(Move::Attack {
        player: 1,
        target: 0,
        range: 0,
    });
    t.roll(5); // 5 + 3 = 8: 1 hit
    t.roll(3);
    t.until(|s| s.step == Step::Search { seat: 0 });
    assert_eq!(t.s().draw_count(0), 0);
    t.play(Move::Draw {
        player: 0,
        cards: vec![],
    });
    assert_eq!(t.s().discard, ["A3"]);
    t.play(Move::FinishSearch { player: 0 });
    t.until(|s| s.round == 3 && s.step == Step::Search { seat: 1 });
    assert_eq!(t.s().draw_count(1), 1);
    t.play(Move::Draw {
        player: 1,
        cards: vec!["A3".into()],
    });
    assert!(t.s().deck.is_empty() && t.s().discard.is_empty());
}

#[test]
fn rebuilding_is_for_ones_own_search_and_swaps_go_to_cargo() {
    let mut t = Table::two("C222", "D222");
    t.build(0, &[("A3", Slot(3))], &["M1"]);
    // Outside the search phase, equipping is refused (an ability may override it)
    assert_eq!(
        t.refused(Move::Equip {
            player: 0,
            card: "M1".into(),
            space: Slot(1)
        }),
        ["space-junk.rebuild-timing"]
    );
    t.names(
        Move::Equip {
            player: 0,
            card: "M1".into(),
            space: Slot(1),
        },
        "space-junk.rebuild-timing",
        &[
            "Aki moves M1 (M1) on the ship",
            "round 1 search: Ben draws junk",
        ],
        &[
            "Aki が船の M1（M1） を動かしました",
            "ラウンド1 探索：Benがジャンクを引く",
        ],
    );
    // In Aki's next rebuild, a cargo card replaces A3, which goes to cargo
    t.until(|s| s.step == Step::Rebuild { seat: 0 });
    t.play(Move::Equip {
        player: 0,
        card: "M1".into(),
        space: Slot(3),
    });
    assert_eq!(t.s().players[0].cargo, ["A3"]);
    // and a card moved between spaces swaps with the card there
    t.play(Move::Equip {
        player: 0,
        card: "A3".into(),
        space: Slot(4),
    });
    t.play(Move::Equip {
        player: 0,
        card: "A3".into(),
        space: Slot(3),
    });
    assert_eq!(t.s().place("M1"), Some(Place::Ship(0, Slot(4))));
    assert_eq!(t.s().place("A3"), Some(Place::Ship(0, Slot(3))));
    t.play(Move::Unequip {
        player: 0,
        card: "M1".into(),
    });
    assert_eq!(t.s().players[0].cargo, ["M1"]);
}

#[test]
fn a_limited_ability_counts_its_uses_and_effects_are_logged() {
    let mut t = Table::two("CU", "C222");
    let effect = |ability: bool| Move::Effect {
        player: 0,
        fame: 2,
        movement: 1,
        attack: 0,
        search: 0,
        spaces: 0,
        repair: None,
        ability,
        note: "once per game: +2 fame".into(),
    };
    assert_eq!(t.tracker(0, "ability-uses"), 1);
    t.play(effect(true));
    assert_eq!(
        (
            t.tracker(0, "ability-uses"),
            t.tracker(0, "fame"),
            t.tracker(0, "move")
        ),
        (0, 2, 3)
    );
    assert_eq!(t.refused(effect(true)), ["space-junk.ability-uses"]);
    t.names(
        effect(true),
        "space-junk.ability-uses",
        &["CU (CU)'s ability has no use left"],
        &["CU（CU） の能力は使用回数が残っていません"],
    );
    let log = cards::matches::AnyMatch::log(&t.m);
    assert!(
        log.last().unwrap().text.contains("fame +2, Move +1"),
        "{:?}",
        log.last()
    );
}

#[test]
fn setup_refuses_two_characters_the_same_character_and_a_wrong_player_count() {
    let cat = catalogue();
    let header = |decks: Vec<Vec<&str>>| MatchHeader {
        game: GameId::SpaceJunk,
        catalogue: "test".into(),
        players: decks
            .into_iter()
            .enumerate()
            .map(|(i, d)| PlayerConfig {
                name: NAMES[i].into(),
                deck_name: "x".into(),
                deck: d.into_iter().map(str::to_owned).collect(),
            })
            .collect(),
        rules: serde_json::Value::Null,
    };
    let e = Match::<SpaceJunk>::new(header(vec![vec!["C111", "C222"], vec!["C333"]]), &cat)
        .unwrap_err();
    assert!(e.to_string().contains("one character"), "{e}");
    let e = Match::<SpaceJunk>::new(header(vec![vec!["C111"], vec!["C111"]]), &cat).unwrap_err();
    assert!(e.to_string().contains("single card"), "{e}");
    let e = Match::<SpaceJunk>::new(header(vec![vec!["C111"]]), &cat).unwrap_err();
    assert!(e.to_string().contains("2–6"), "{e}");
    // Players without a character are dealt one at setup.
    let mut m = Match::<SpaceJunk>::new(header(vec![vec![], vec![]]), &cat).unwrap();
    match m.prepare(&mv(Move::FirstPlayer { player: 0 })) {
        Err(Rejection::Refused { violations }) => {
            assert_eq!(violations[0].rule, "space-junk.setup-order");
            assert!(
                violations[0]
                    .sentence
                    .contains("Aki, Ben has no character card")
            );
            assert!(
                violations[0]
                    .sentence_ja
                    .contains("Aki, Ben にはまだキャラクターカード")
            );
        }
        other => panic!("{other:?}"),
    }
    for (player, card) in [(0, "C111"), (1, "C333")] {
        let p = m
            .prepare(&mv(Move::DealCharacter {
                player,
                card: card.into(),
            }))
            .unwrap();
        m.commit(p);
    }
    let p = m.prepare(&mv(Move::FirstPlayer { player: 1 })).unwrap();
    m.commit(p);
    assert_eq!(m.state().step, Step::Move { seat: 1 });
}

#[test]
fn adjustments_stay_in_range_and_card_counts_are_not_numbers() {
    let mut t = Table::two("C222", "D222");
    let adjust = |name: &str, seat: Option<usize>, value: i32| Input::Adjust {
        tracker: TrackerId::named(seat, name),
        value,
        reason: "test".into(),
    };
    assert!(t.input(adjust("ring", Some(0), 4)).is_err());
    assert!(t.input(adjust("position", Some(0), 16)).is_err());
    assert!(t.input(adjust("deck", None, 3)).is_err());
    t.input(adjust("ring", Some(0), 3)).unwrap();
    t.input(adjust("attack", Some(1), 7)).unwrap();
    assert_eq!((t.tracker(0, "ring"), t.tracker(1, "attack")), (3, 7));
}

// ------------------------------------------------------------------ house rules

#[test]
fn house_rule_ring_lengths_and_start_ring() {
    // Given the middle ring has 10 spaces and every ship starts there
    let mut t = Table::new(
        &["C333", "C222"],
        json!({"ring_length_middle": 10, "start_ring": 2}),
    );
    assert_eq!(t.tracker(0, "ring"), 2);
    // When Aki (Move 3) flies 4 rounds in the middle ring: 3, 6, 9, 12 → one orbit in round 4
    t.until(|s| s.round == 4 && s.step == Step::Attack { seat: 1 });
    assert_eq!((t.tracker(0, "position"), t.tracker(0, "orbits")), (2, 1));
    assert_eq!(t.tracker(0, "fame"), 5);
}

#[test]
fn house_rule_movement_up_to_the_move_value() {
    let mut t = Table::new(&["C222", "D222"], json!({"exact_movement": false}));
    t.play(Move::MoveShip {
        player: 0,
        ring: 1,
        spaces: Some(1),
    });
    assert_eq!(t.tracker(0, "position"), 1);
    assert_eq!(
        t.refused(Move::MoveShip {
            player: 1,
            ring: 1,
            spaces: Some(3)
        }),
        ["space-junk.move-exact"]
    );
}

#[test]
fn house_rule_ramming_from_round_1() {
    let mut t = Table::new(&["C222", "D222"], json!({"ram_from_round": 1}));
    t.auto();
    t.auto();
    assert_eq!(t.step(), Step::Ram { seat: 1 });
    t.play(Move::Ram {
        player: 1,
        target: 0,
    });
    assert_eq!(t.step(), Step::RamDice);
    assert_eq!(t.m.context().prompts.len(), 2);
}

#[test]
fn house_rule_stats_below_zero() {
    // Given Aki (Move 1) with a Move −3 card
    for (floor, expected) in [(true, 0), (false, -2)] {
        let mut t = Table::new(&["C111", "C222"], json!({"floor_stats_at_zero": floor}));
        t.build(0, &[("NEG", Slot(1))], &[]);
        assert_eq!(t.tracker(0, "move"), expected);
        // A ship with Move below 0 does not move backwards.
        t.until(|s| s.round == 2 && s.step == Step::Move { seat: 0 });
        let pos = t.tracker(0, "position");
        t.auto();
        assert_eq!(t.tracker(0, "position"), pos);
    }
}

#[test]
fn house_rule_tie_break_without_the_character() {
    // Given Aki (character 3 in all) with junk summing 10, Ben (character 9) with junk summing 8,
    // both on 10 fame from junk and the same track
    let end = |rules: serde_json::Value| {
        let mut t = Table::new(&["C111", "C333"], rules);
        t.build(0, &[], &["K1", "K2"]);
        t.build(1, &[], &["L1", "L2"]);
        t.until(|s| s.round == 6 && s.step == Step::Cameo);
        for seat in 0..2 {
            t.input(Input::Adjust {
                tracker: TrackerId::named(Some(seat), "fame"),
                value: 20,
                reason: "same track".into(),
            })
            .unwrap();
        }
        t.play(Move::EndRound {});
        t
    };
    // Then with the character Ben's ship is better (17 to 13)
    let t = end(serde_json::Value::Null);
    assert_eq!((t.s().best_ship(0), t.s().best_ship(1)), (13, 17));
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 1, .. })
    ));
    // and without it Aki's (10 to 8)
    let t = end(json!({"tie_break_counts_character": false}));
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 0, .. })
    ));
}

#[test]
fn house_rule_no_cameo_pause() {
    let mut t = Table::new(&["C222", "D222"], json!({"cameo": false}));
    t.until(|s| s.round == 2);
    // The round ended after the last search; the marker moved to Ben.
    assert_eq!(t.step(), Step::Move { seat: 1 });
    assert_eq!(t.m.context().leader, Some(1));
}

#[test]
fn unknown_or_impossible_house_rules_are_refused() {
    let cat = catalogue();
    for rules in [
        json!({"ring_lenght_inner": 12}),
        json!({"start_ring": 4}),
        json!({"search_limit_outer": 0}),
    ] {
        let header = MatchHeader {
            game: GameId::SpaceJunk,
            catalogue: "test".into(),
            players: vec![
                PlayerConfig {
                    name: "A".into(),
                    deck_name: "x".into(),
                    deck: vec!["C111".into()],
                },
                PlayerConfig {
                    name: "B".into(),
                    deck_name: "x".into(),
                    deck: vec!["C222".into()],
                },
            ],
            rules,
        };
        assert!(Match::<SpaceJunk>::new(header, &cat).is_err());
    }
}

// ------------------------------------------------------------------ the demo script

#[test]
fn the_documented_demo_script_plays_a_whole_match() {
    use cards::script::{Script, run_step};
    // Given the demo script and the built-in demo set
    let text = include_str!("../../docs/examples/space_junk-demo.script");
    let script = Script::parse(text).unwrap();
    assert_eq!(script.game, GameId::SpaceJunk);
    let cat = Catalogue::builtin(GameId::SpaceJunk).unwrap();
    let mut m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    // When every line runs (inputs stored, checks checked)
    for (line, step) in &script.steps {
        run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap_or_else(|e| panic!("{e}"));
    }
    // Then the match is over with the documented winner
    assert!(
        matches!(m.outcome(), Some(Outcome::Win { winner: 2, .. })),
        "{:?}",
        m.outcome()
    );
    // Dice answered prompts, a correction was taken back, and the match ran six rounds.
    let log = m.log();
    assert!(log.iter().any(|l| l.undone));
    assert!(log.iter().filter(|l| l.text.contains("d6 =")).count() >= 10);
    assert_eq!(m.context().turn, 6);
}

// ------------------------------------------------------------------ refusals that are rules

/// The violations a move is refused for (it is not applied).
fn refusal(t: &Table, m: Move) -> Vec<cards::core::Violation> {
    match t.m.prepare(&mv(m)) {
        Err(Rejection::Refused { violations }) => violations,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn attacking_ones_own_ship_is_a_rule_and_can_be_overridden() {
    // Given Aki's turn to attack in round 2,
    let mut t = Table::two("C211", "C222");
    t.until(|s| s.step == Step::Attack { seat: 0 });
    // when Aki targets her own ship, the refusal cites the rule in both languages,
    let v = refusal(
        &t,
        Move::Attack {
            player: 0,
            target: 0,
            range: 0,
        },
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "space-junk.attack-own-ship");
    assert!(
        v[0].sentence.contains("Aki targets their own ship"),
        "{}",
        v[0].sentence
    );
    assert!(v[0].sentence_ja.contains("Aki"), "{}", v[0].sentence_ja);
    assert!(
        v[0].reference.contains("Combat Phase"),
        "{}",
        v[0].reference
    );
    // and with an override the attack is declared.
    t.force(Move::Attack {
        player: 0,
        target: 0,
        range: 0,
    });
    assert_eq!(t.step(), Step::AttackDie);
}

#[test]
fn attacking_out_of_turn_names_whose_turn_it_is() {
    let mut t = Table::two("C211", "C222");
    t.until(|s| s.step == Step::Attack { seat: 0 });
    let v = refusal(
        &t,
        Move::Attack {
            player: 1,
            target: 0,
            range: 0,
        },
    );
    assert_eq!(v[0].rule, "space-junk.turn-order");
    assert!(
        v[0].sentence
            .contains("It is Aki's turn to attack, not Ben's"),
        "{}",
        v[0].sentence
    );
    assert!(!v[0].sentence_ja.is_empty());
}

#[test]
fn a_ram_on_another_space_says_so_even_when_no_ram_step_opened() {
    // Given Aki ends her move on an empty space in round 2 (no ram step opens),
    let mut t = Table::new(&["C222", "D222", "C333"], serde_json::Value::Null);
    t.until(|s| s.round == 2 && s.step == Step::Move { seat: 1 });
    assert!(!t.s().ships_here(0).contains(&2));
    // when she rams Cho anyway, the refusal is the space rule, not "right after your own move".
    let v = refusal(
        &t,
        Move::Ram {
            player: 0,
            target: 2,
        },
    );
    let rules: Vec<&str> = v.iter().map(|v| v.rule.as_str()).collect();
    assert_eq!(rules, ["space-junk.ram-space"], "{v:?}");
    assert!(
        v[0].sentence.contains("Cho is not on Aki's space"),
        "{}",
        v[0].sentence
    );
    assert!(!v[0].sentence_ja.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Refusals of moves a player can make at the table: rules, with an override's effect.

#[test]
fn refusal_moves_out_of_their_phase() {
    // Given round 1's move phase, Aki to move,
    let mut t = Table::two("C222", "D222");
    // When Aki draws junk now, it belongs to the search phase;
    let card = t.s().deck[0].clone();
    t.refused_then_overridden(
        Move::Draw {
            player: 0,
            cards: vec![card.clone()],
        },
        "space-junk.phase-order",
        &["Drawing junk", "search phase", "round 1 move"],
        &["ジャンクを引くこと", "サーチフェイズ"],
    );
    // overridden, the card is drawn and the match stays at Aki's move.
    assert!(t.s().players[0].drawn.contains(&card));
    assert_eq!(t.step(), Step::Move { seat: 0 });
    // Attacking, passing an attack, settling hits, finishing a search and dealing a character
    // all name their phase.
    t.refused_then_overridden(
        Move::NoAttack { player: 0 },
        "space-junk.phase-order",
        &["Passing an attack", "combat phase"],
        &["攻撃を見送ること"],
    );
    t.refused_then_overridden(
        Move::ConfirmHits { player: 0 },
        "space-junk.phase-order",
        &["Settling the hits", "attack die"],
        &["ヒットの確定"],
    );
    t.refused_then_overridden(
        Move::FinishSearch { player: 0 },
        "space-junk.phase-order",
        &["Finishing a search"],
        &["サーチの終了"],
    );
    t.refused_then_overridden(
        Move::NoRam { player: 0 },
        "space-junk.phase-order",
        &["Declining a ram"],
        &["体当たりを見送ること"],
    );
    t.refused_then_overridden(
        Move::NoTake { player: 0 },
        "space-junk.phase-order",
        &["Declining to take junk", "a won ram"],
        &["ジャンクを取らないこと"],
    );
    t.refused_then_overridden(
        Move::DealCharacter {
            player: 1,
            card: "C333".into(),
        },
        "space-junk.phase-order",
        &["Dealing a character", "setup"],
        &["キャラクターを配ること", "準備"],
    );
    assert_eq!(t.s().players[1].character.as_deref(), Some("C333"));
    assert_eq!(t.step(), Step::Move { seat: 0 });
    // Ending the round before cameo time ends it early.
    t.refused_then_overridden(
        Move::EndRound {},
        "space-junk.phase-order",
        &["Ending the round", "cameo time"],
        &["ラウンドの終了"],
    );
    assert_eq!(t.s().round, 2);
}

#[test]
fn refusal_moves_on_another_players_turn() {
    // Given round 1's attack phase, Aki to attack,
    let mut t = Table::two("C222", "D222");
    t.until(|s| s.step == Step::Attack { seat: 0 });
    // When Ben passes, it is Aki's turn; overridden, Aki's attack is passed.
    t.refused_then_overridden(
        Move::NoAttack { player: 1 },
        "space-junk.turn-order",
        &["Aki's turn to attack", "not Ben's"],
        &["Aki の攻撃の番"],
    );
    assert_eq!(t.step(), Step::Attack { seat: 1 });
    // Drawing on Aki's search turn is his, not Ben's.
    t.until(|s| s.step == Step::Search { seat: 0 });
    t.refused_then_overridden(
        Move::Draw {
            player: 1,
            cards: vec![],
        },
        "space-junk.turn-order",
        &["Aki's turn to search", "not Ben's"],
        &["Aki のサーチの番"],
    );
    assert_eq!(t.step(), Step::Search { seat: 0 });
}

#[test]
fn refusal_taking_junk_without_a_won_ram() {
    // Given round 1's move phase,
    // where Ben holds a card he drew (by an override),
    let mut t = Table::two("C222", "D222");
    let card = t.s().deck[0].clone();
    t.force(Move::Draw {
        player: 1,
        cards: vec![card.clone()],
    });
    assert_eq!(t.s().place(&card), Some(Place::Drawn(1)));
    // When Aki takes it from Ben, it belongs to a won ram;
    t.refused_then_overridden(
        Move::TakeJunk {
            player: 0,
            card: card.clone(),
        },
        "space-junk.phase-order",
        &["Taking junk from another ship", "a won ram"],
        &["ほかの船からジャンクを取ること"],
    );
    // overridden, the card is in Aki's cargo (a drawn card is not equipped).
    assert_eq!(t.s().place(&card), Some(Place::Cargo(0)));
    // Taking one's own card is no take at all.
    assert!(matches!(
        t.m.prepare(&mv(Move::TakeJunk { player: 0, card })),
        Err(Rejection::Impossible(_))
    ));
}

#[test]
fn refusal_a_boost_outside_the_three_phases() {
    // Given a fresh table dealt C222 / D222, with cameo time reached,
    let mut t = Table::two("C222", "D222");
    t.until(|s| s.step == Step::Cameo);
    let card = t.s().deck[0].clone();
    t.force(Move::Draw {
        player: 0,
        cards: vec![card.clone()],
    });
    t.refused_then_overridden(
        Move::Boost {
            player: 0,
            card: card.clone(),
        },
        "space-junk.boost-phase",
        &["move, attack or search phase", "cameo"],
        &["＊ブーストが加わるのは"],
    );
    // overridden, the card is damaged for no boost.
    assert!(t.s().damaged.contains(&card));
}

#[test]
fn sentences_of_the_ram_turn_rules_name_both_players() {
    // Given Aki ends her round-2 move on Ben's space (her ram step is open),
    let mut t = Table::two("C222", "D222");
    t.build(1, &[("M1", Slot(5))], &[]);
    t.until(|s| s.round == 2 && s.step == Step::Move { seat: 0 });
    t.auto();
    assert_eq!(t.step(), Step::Ram { seat: 0 });
    // when Ben rams her instead, it is not right after his own move;
    t.names(
        Move::Ram {
            player: 1,
            target: 0,
        },
        "space-junk.ram-timing",
        &["Ben rams Aki, but a ship rams right after its own move"],
        &["Ben が Aki に体当たりしましたが"],
    );
    // and when Aki wins her ram, Ben declining the take for her is not his to decline.
    t.play(Move::Ram {
        player: 0,
        target: 1,
    });
    t.roll(6);
    t.roll(1);
    t.refused_then_overridden(
        Move::NoTake { player: 1 },
        "space-junk.ram-winner",
        &["Aki won the ram, not Ben"],
        &["体当たりに勝ったのは Aki です（Ben ではありません）"],
    );
}

#[test]
fn setup_refusals_name_the_player_and_the_characters() {
    let cat = catalogue();
    let header = |decks: Vec<Vec<&str>>| MatchHeader {
        game: GameId::SpaceJunk,
        catalogue: "test".into(),
        players: decks
            .into_iter()
            .enumerate()
            .map(|(i, d)| PlayerConfig {
                name: NAMES[i].into(),
                deck_name: "character".into(),
                deck: d.into_iter().map(str::to_owned).collect(),
            })
            .collect(),
        rules: serde_json::Value::Null,
    };
    let names = common::quoted_names(&header(vec![vec![], vec![]]), &cat);
    let violations = |decks| match Match::<SpaceJunk>::new(header(decks), &cat) {
        Err(cards::game::SetupError::IllegalDeck { violations, .. }) => violations,
        other => panic!("expected an illegal deck, got {:?}", other.err()),
    };
    // Two characters for Aki,
    let v = violations(vec![vec!["C111", "C222"], vec!["C333"]]);
    assert_eq!(v[0].rule, "space-junk.setup-character");
    assert!(v[0].sentence.contains("Aki lists 2: C111, C222"), "{v:?}");
    assert!(
        v[0].sentence_ja.contains("Aki には2枚あります：C111、C222"),
        "{v:?}"
    );
    common::assert_japanese(&v[0].sentence_ja, &names);
    // one character for Aki and Ben.
    let v = violations(vec![vec!["C111"], vec!["C111"]]);
    assert_eq!(v[0].rule, "space-junk.character-unique");
    assert!(
        v[0].sentence
            .contains("C111 is a single card and already goes to Aki, not also to Ben"),
        "{v:?}"
    );
    assert!(
        v[0].sentence_ja
            .contains("すでに Aki に配られています（Ben には配れません）"),
        "{v:?}"
    );
    common::assert_japanese(&v[0].sentence_ja, &names);
}

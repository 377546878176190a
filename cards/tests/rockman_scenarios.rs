//! Rockman EXE scenarios in given / when / then form: every worked example of
//! `rules/rockman-exe.md` §11, each optional rule (Lv1, Lv2, Lv3), each refusal rule, each
//! house-rule setting and the documented demo script.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use cards::catalogue::Catalogue;
use cards::core::{GameId, Outcome, TrackerId};
use cards::game::MatchHeader;
use cards::games::rockman::{
    CardList, HitResult, Move, Rockman, Square, Squares, State, Step, demo_header,
};
use cards::matches::{Input, Match, Rejection};
use serde_json::{Value, json};

const AKI: usize = 0;
const BEN: usize = 1;

fn cat() -> Catalogue {
    Catalogue::builtin(GameId::RockmanExe).unwrap()
}

fn header(rules: Value) -> MatchHeader {
    let mut h = demo_header(&cat(), ["Aki", "Ben"], ["aozora", "kagaribi"]).unwrap();
    h.rules = rules;
    h
}

fn sq(col: i8, row: i8) -> Square {
    Square::new(col, row)
}

fn transfer(player: usize, card: &str, col: i8, row: i8) -> Move {
    Move::Transfer {
        player,
        card: card.into(),
        square: sq(col, row),
    }
}

fn attack(player: usize, col: i8, row: i8) -> Move {
    Move::Attack {
        player,
        from: sq(col, row),
        target: Squares::default(),
        bonus: 0,
    }
}

fn chip(player: usize, card: &str, from: (i8, i8)) -> Move {
    Move::UseChip {
        player,
        card: card.into(),
        from: Some(sq(from.0, from.1)),
        target: Squares::default(),
        bonus: 0,
    }
}

fn move_card(player: usize, from: (i8, i8), to: (i8, i8), discard: Option<&str>) -> Move {
    Move::MoveCard {
        player,
        from: sq(from.0, from.1),
        to: sq(to.0, to.1),
        discard: discard.map(str::to_owned),
    }
}

fn pass(player: usize) -> Move {
    Move::Pass { player }
}

fn end_transfer(player: usize) -> Move {
    Move::EndTransfer { player }
}

struct Table {
    m: Match<Rockman>,
}

impl Table {
    /// Given: Aki (seat 0, Aozora deck, navi アオゾラ.EXE RX01: attack 30, lane) and Ben (seat 1,
    /// Kagaribi deck, navi カガリビ.EXE RX02: attack 40, adjacent) with their navis on the centre
    /// square (1,1); Aki wins the turn-1 janken, both drew 5, and Aki transfers first.
    fn new() -> Table {
        Table::with(Value::Null)
    }

    fn with(rules: Value) -> Table {
        let mut t = Table {
            m: Match::new(header(rules), &cat()).expect("legal decks"),
        };
        t.play(Move::OpeningNavi {
            player: AKI,
            card: "RX01".into(),
        });
        t.play(Move::OpeningNavi {
            player: BEN,
            card: "RX02".into(),
        });
        t.play(Move::Janken { winner: AKI });
        t
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
        let desc = format!("{mv:?}");
        self.try_play(mv).unwrap_or_else(|e| panic!("{desc}: {e}"));
    }

    /// The rule ids that refuse this move (the move is not applied).
    fn refused(&self, mv: Move) -> Vec<String> {
        match self.m.prepare(&Input::Move {
            mv,
            override_reason: None,
        }) {
            Err(Rejection::Refused { violations }) => {
                let names = common::quoted_names(self.m.header(), &cat());
                for v in &violations {
                    common::assert_japanese(&v.sentence_ja, &names);
                }
                violations.into_iter().map(|v| v.rule).collect()
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    /// Then: the move is refused by `rule` (not applied); that violation, its Japanese sentence
    /// checked to be in Japanese.
    fn violation(&self, mv: Move, rule: &str) -> cards::core::Violation {
        match self.m.prepare(&Input::Move {
            mv,
            override_reason: None,
        }) {
            Err(Rejection::Refused { violations }) => {
                let names = common::quoted_names(self.m.header(), &cat());
                for v in &violations {
                    common::assert_japanese(&v.sentence_ja, &names);
                }
                violations
                    .into_iter()
                    .find(|v| v.rule == rule)
                    .unwrap_or_else(|| panic!("not refused by {rule}"))
            }
            other => panic!("expected a refusal by {rule}, got {other:?}"),
        }
    }

    /// Then: the move is refused by `rule`, whose sentences name the cause (`en`, `ja`); with an
    /// override it is applied, the entry records the broken rules, and the log replays to the
    /// live state.
    fn refused_then_overridden(&mut self, mv: Move, rule: &str, en: &[&str], ja: &[&str]) {
        common::refused_then_overridden(
            &mut self.m,
            &cat(),
            mv,
            "agreed at the table",
            rule,
            en,
            ja,
        );
    }

    fn override_play(&mut self, mv: Move) {
        let p = self
            .m
            .prepare(&Input::Move {
                mv,
                override_reason: Some("agreed at the table".into()),
            })
            .unwrap();
        assert!(self.m.commit(p));
    }

    fn adjust(&mut self, player: Option<usize>, name: &str, value: i32) {
        let p = self
            .m
            .prepare(&Input::Adjust {
                tracker: TrackerId::named(player, name),
                value,
                reason: "given".into(),
            })
            .unwrap_or_else(|e| panic!("adjust {name}: {e}"));
        assert!(self.m.commit(p));
    }

    fn tracker(&self, player: Option<usize>, name: &str) -> i32 {
        let id = TrackerId::named(player, name);
        self.m
            .trackers()
            .into_iter()
            .find(|t| t.id == id)
            .unwrap_or_else(|| panic!("no tracker {id}"))
            .value
    }

    fn hp(&self) -> (i32, i32) {
        (self.s().players[0].hp, self.s().players[1].hp)
    }

    /// Both players end their transfer (first, then second).
    fn end_transfers(&mut self) {
        while matches!(self.s().step, Step::TransferFirst | Step::TransferSecond) {
            let seat = if self.s().step == Step::TransferFirst {
                self.s().first.unwrap()
            } else {
                1 - self.s().first.unwrap()
            };
            self.play(end_transfer(seat));
        }
    }

    /// Passes until the battle phase is over.
    fn end_battle(&mut self) {
        while self.s().step == Step::Battle {
            let a = self.s().active.unwrap();
            self.play(pass(a));
        }
    }

    /// Finishes the turn: battle, end-phase effects, both exchanges without discards; janken
    /// (Aki wins) when the order is tied.
    fn finish_turn(&mut self) {
        self.end_transfers();
        self.end_battle();
        if self.s().step == Step::EndEffects {
            self.play(Move::EndEffects {});
        }
        for seat in [AKI, BEN] {
            if self.s().step == Step::Exchange && !self.s().players[seat].exchanged {
                self.play(Move::Exchange {
                    player: seat,
                    discard: CardList::default(),
                });
            }
        }
        if self.s().step == Step::Janken {
            self.play(Move::Janken { winner: AKI });
        }
    }
}

// ---- §11 worked examples ----

#[test]
fn example_1_turn_order() {
    // Given a match in its second turn (turn 2 was a janken: equal HP, one card each),
    let mut t = Table::new();
    t.finish_turn();
    assert_eq!(t.s().turn, 2);
    // when A ends turn 2 at HP 150 and B at HP 170,
    t.adjust(Some(AKI), "hp", 150);
    t.adjust(Some(BEN), "hp", 170);
    t.finish_turn();
    // then in turn 3 A (lower HP) is first, with no janken.
    assert_eq!(t.s().turn, 3);
    assert_eq!(t.s().first, Some(AKI));
    assert_eq!(t.s().step, Step::TransferFirst);

    // Given both at 150, when A has 3 cards in area + chip zone and B has 2,
    t.adjust(Some(BEN), "hp", 150);
    t.play(transfer(AKI, "RX08", 0, 0));
    t.play(Move::PlaceChip { player: AKI });
    t.play(end_transfer(AKI));
    t.play(transfer(BEN, "RX05", 0, 0));
    t.finish_turn();
    // then in turn 4 B (fewer cards) is first.
    assert_eq!((t.s().table_cards(AKI), t.s().table_cards(BEN)), (3, 2));
    assert_eq!(t.s().first, Some(BEN));

    // Given equal HP, when both counts are 2 (A's chip is used),
    t.play(end_transfer(BEN));
    t.play(end_transfer(AKI));
    t.play(pass(BEN));
    t.play(Move::UseChip {
        player: AKI,
        card: "RX20".into(), // ヒールドロップ: text only
        from: None,
        target: Squares::default(),
        bonus: 0,
    });
    t.end_battle();
    if t.s().step == Step::EndEffects {
        t.play(Move::EndEffects {});
    }
    t.play(Move::Exchange {
        player: AKI,
        discard: CardList::default(),
    });
    t.play(Move::Exchange {
        player: BEN,
        discard: CardList::default(),
    });
    // then turn 5 waits for janken.
    assert_eq!(t.s().turn, 5);
    assert_eq!(t.s().step, Step::Janken);
    assert_eq!(t.s().first, None);
    t.play(Move::Janken { winner: BEN });
    assert_eq!(t.s().first, Some(BEN));
}

/// Ben's 30/50 virus カゲボウシ (RX10) on his front middle square (1,0), facing Aki's lane 1.
fn with_30_50_virus(t: &mut Table) {
    t.play(transfer(AKI, "RX08", 1, 0)); // ツララン: attack 20, lane
    t.play(Move::PlaceChip { player: AKI });
    t.play(end_transfer(AKI));
    t.play(transfer(BEN, "RX10", 1, 0));
    t.play(end_transfer(BEN));
}

#[test]
fn example_2_virus_damage_30_50() {
    // Given Ben's unacted 30/50 virus in Aki's lane,
    let mut t = Table::new();
    with_30_50_virus(&mut t);
    // when Aki's ツララン hits it with attack 20,
    t.play(attack(AKI, 1, 0));
    // then 20 < 30: no damage.
    assert_eq!(t.tracker(Some(BEN), "damage-1-0"), 0);
    let hit = &t.s().last_attack.as_ref().unwrap().hits[0];
    assert_eq!(hit.result, HitResult::Blocked { defence: 30 });
    // When Aki's navi (attack 30, lane) hits it, then 30 ≥ 30: counter 30, it survives.
    t.play(pass(BEN));
    t.play(attack(AKI, 1, 1));
    assert_eq!(t.tracker(Some(BEN), "damage-1-0"), 30);
    // When the virus attacks, it becomes acted;
    t.play(attack(BEN, 1, 0));
    assert_eq!(t.tracker(Some(BEN), "acted-1-0"), 1);
    // and a further attack of 20 (a chip) meets defence 0: counter 50 ≥ 50, destroyed.
    t.play(chip(AKI, "RX17", (1, 1)));
    assert!(t.s().at(BEN, sq(1, 0)).is_none());
    assert_eq!(t.s().players[BEN].discard, vec!["RX10".to_owned()]);
    let hit = &t.s().last_attack.as_ref().unwrap().hits[0];
    assert_eq!(hit.result, HitResult::Destroyed { total: 50 });
}

#[test]
fn example_3_damage_resets_in_the_end_phase() {
    // Given the 30/50 virus ends the battle phase with counter 40, acted,
    let mut t = Table::new();
    with_30_50_virus(&mut t);
    t.play(pass(AKI));
    t.play(attack(BEN, 1, 0)); // it attacks Aki's ツララン: acted
    t.play(chip(AKI, "RX21", (1, 1))); // 雷ボール 40 against defence 0
    assert_eq!(t.tracker(Some(BEN), "damage-1-0"), 40);
    // when the end phase runs END (2),
    t.end_battle();
    t.play(Move::EndEffects {}); // カガリビ.EXE has an end-phase effect
    // then the counter is 0 and the virus unacted,
    assert_eq!(t.tracker(Some(BEN), "damage-1-0"), 0);
    assert_eq!(t.tracker(Some(BEN), "acted-1-0"), 0);
    // and next turn an unacted hit of 20 does nothing again.
    t.play(Move::Exchange {
        player: AKI,
        discard: CardList::default(),
    });
    t.play(Move::Exchange {
        player: BEN,
        discard: CardList::default(),
    });
    t.play(Move::Janken { winner: AKI });
    t.end_transfers();
    t.play(attack(AKI, 1, 0));
    assert_eq!(t.tracker(Some(BEN), "damage-1-0"), 0);
}

#[test]
fn example_4_navi_damage_and_the_loss() {
    // Given both navis moved to the front middle square, facing each other,
    let mut t = Table::new();
    t.end_transfers();
    let a = t.s().players[AKI].unplayed[0].clone();
    let b = t.s().players[BEN].unplayed[0].clone();
    t.play(move_card(AKI, (1, 1), (1, 0), Some(&a)));
    t.play(move_card(BEN, (1, 1), (1, 0), Some(&b)));
    t.play(pass(AKI));
    // when Ben's navi (attack 40) hits Aki's navi,
    t.play(attack(BEN, 1, 0));
    // then Aki's HP gauge goes 200 → 160.
    assert_eq!(t.hp(), (160, 200));
    // Given Aki at 30 and Ben's navi unacted again, when it hits for 40 (→ −10),
    t.adjust(Some(AKI), "hp", 30);
    t.adjust(Some(BEN), "acted-1-0", 0);
    t.play(pass(AKI));
    t.play(attack(BEN, 1, 0));
    // then the gauge shows 0 and Aki loses.
    assert_eq!(t.hp(), (0, 200));
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 1, .. })
    ));
}

#[test]
fn example_5_deck_out_in_the_draw_phase() {
    // Given Ben discarded 12 cards during turn 1 and exchanged first,
    let mut t = Table::new();
    t.end_transfers();
    t.end_battle();
    t.play(Move::EndEffects {});
    t.adjust(Some(BEN), "hand", 12);
    let twelve: Vec<String> = t.s().players[BEN].unplayed[..12].to_vec();
    t.play(Move::Effect {
        player: BEN,
        hp: 0,
        opp_hp: 0,
        draw: 0,
        discard: CardList(twelve),
        square: None,
        opp: false,
        damage: 0,
        acted: None,
        to: None,
        destroy: false,
        note: "test: a discard pile of 12".into(),
    });
    t.play(Move::Exchange {
        player: BEN,
        discard: CardList::default(),
    });
    // and stands at HP 100, hand 3, deck 1 when turn 2 begins,
    t.adjust(Some(BEN), "hp", 100);
    t.adjust(Some(BEN), "hand", 3);
    t.adjust(Some(BEN), "deck", 1);
    assert_eq!(t.s().players[BEN].discard.len(), 12);
    // when the draw phase draws him to 5,
    t.play(Move::Exchange {
        player: AKI,
        discard: CardList::default(),
    });
    // then: 1 drawn (hand 4), the deck is empty → HP 70, the 12 discards become the deck, 1 more
    // drawn (hand 5, deck 11).
    assert_eq!(t.s().turn, 2);
    assert_eq!(t.s().first, Some(BEN)); // lower HP goes first
    let b = &t.s().players[BEN];
    assert_eq!((b.hp, b.hand, b.deck, b.discard.len()), (70, 5, 11, 0));
}

#[test]
fn example_6_lv1_chip_limit_follows_hp() {
    // Given the Lv1 rule and a level-2 chip (雷ボール RX21) in Aki's chip zone,
    let mut t = Table::with(json!({"lv1_chip_limit": true}));
    t.play(Move::PlaceChip { player: AKI });
    t.end_transfers();
    let lv2 = chip(AKI, "RX21", (1, 1));
    // then at HP 200 and 110 only level 1 is allowed,
    for hp in [200, 110] {
        t.adjust(Some(AKI), "hp", hp);
        assert_eq!(t.tracker(Some(AKI), "chip-level"), 1);
        assert_eq!(t.refused(lv2.clone()), vec!["rockman-exe.lv1-chip-level"]);
    }
    // at 100 and 60 up to level 2, at 50 up to level 3;
    for (hp, level) in [(100, 2), (60, 2), (50, 3), (10, 3)] {
        t.adjust(Some(AKI), "hp", hp);
        assert_eq!(t.tracker(Some(AKI), "chip-level"), level);
        assert_eq!(t.s().max_level(AKI), level as u8);
    }
    // and at HP 60 a level-3 chip is refused.
    t.adjust(Some(AKI), "hp", 60);
    assert_eq!(
        t.refused(Move::UseChip {
            player: AKI,
            card: "RX25".into(),
            from: None,
            target: Squares(vec![sq(1, 1)]),
            bonus: 0,
        }),
        vec!["rockman-exe.lv1-chip-level"]
    );
    // When Aki at 110 takes 50 damage (→ 60), a level-2 chip is usable at once.
    t.adjust(Some(AKI), "hp", 110);
    assert!(!t.refused(lv2.clone()).is_empty());
    t.play(Move::Effect {
        player: BEN,
        hp: 0,
        opp_hp: -50,
        draw: 0,
        discard: CardList::default(),
        square: None,
        opp: false,
        damage: 0,
        acted: None,
        to: None,
        destroy: false,
        note: "50 damage to Aki".into(),
    });
    assert_eq!(t.hp().0, 60);
    t.play(lv2);
    assert_eq!(t.s().players[AKI].chips, 0);
}

fn effect(player: usize) -> Move {
    Move::Effect {
        player,
        hp: 0,
        opp_hp: 0,
        draw: 0,
        discard: CardList::default(),
        square: None,
        opp: false,
        damage: 0,
        acted: None,
        to: None,
        destroy: false,
        note: String::new(),
    }
}

#[test]
fn example_7_move_action() {
    // Given Aki's virus on (0,1) beside his navi on the centre (1,1), and it is acted,
    let mut t = Table::new();
    t.play(transfer(AKI, "RX13", 0, 1));
    t.end_transfers();
    t.adjust(Some(AKI), "acted-0-1", 1);
    t.adjust(Some(AKI), "hand", 5);
    let hand = t.s().players[AKI].hand;
    let cost = t.s().players[AKI].unplayed[0].clone();
    // then a diagonal move, a move onto the navi and a move off the edge are rejected,
    assert_eq!(
        t.refused(move_card(AKI, (0, 1), (1, 0), Some(&cost))),
        vec!["rockman-exe.move-orthogonal"]
    );
    assert_eq!(
        t.refused(move_card(AKI, (0, 1), (1, 1), Some(&cost))),
        vec!["rockman-exe.move-empty"]
    );
    t.play(move_card(AKI, (0, 1), (0, 0), Some(&cost)));
    // and when it moves up to (0,0) Aki discards 1 card (hand 5 → 4) and it stays acted.
    assert_eq!(t.s().players[AKI].hand, hand - 1);
    assert_eq!(hand, 5);
    assert_eq!(t.s().players[AKI].discard, vec![cost.clone()]);
    assert!(t.s().at(AKI, sq(0, 0)).unwrap().acted);
    assert!(t.s().at(AKI, sq(0, 1)).is_none());
    // Off the side of the area there is no square at all,
    let cost2 = t.s().players[AKI]
        .unplayed
        .iter()
        .find(|c| **c != cost)
        .unwrap()
        .clone();
    assert!(matches!(
        t.m.prepare(&Input::Move {
            mv: move_card(AKI, (0, 0), (-1, 0), Some(&cost2)),
            override_reason: Some("try".into()),
        }),
        Err(Rejection::Impossible(_))
    ));
    // but in front of row 0 lies the opponent's area: Ben's move there is a rule.
    t.refused_then_overridden(
        move_card(
            BEN,
            (1, 1),
            (1, -1),
            Some(&t.s().players[BEN].unplayed[0].clone()),
        ),
        "rockman-exe.move-own-area",
        &["Ben moves a card from", "into the opponent's area"],
        &["Ben が", "相手のエリア"],
    );
    // Overridden, Ben pays the cost and spends the action; the navi stays on its square.
    assert_eq!(t.s().players[BEN].discard.len(), 1);
    assert!(t.s().at(BEN, sq(1, 1)).is_some());
    assert_eq!(t.s().active, Some(AKI));
}

#[test]
fn refusals_at_setup_transfer_and_end() {
    // Given a match whose navis are placed and whose janken is done,
    let mut t = Table::new();
    // When Aki places an opening navi again, it is past setup and the centre is taken;
    t.refused_then_overridden(
        Move::OpeningNavi {
            player: AKI,
            card: "RX04".into(),
        },
        "rockman-exe.transfer-empty",
        &["Aki puts a card on", "which holds", "empty square"],
        &["Aki が", "空いてるマス"],
    );
    // (overridden, RX04 replaces the navi on the centre; the phase rule is broken too)
    assert_eq!(t.s().at(AKI, sq(1, 1)).unwrap().card, "RX04");
    assert!(
        t.refused(Move::Janken { winner: BEN })
            .contains(&"rockman-exe.phase-order".to_owned())
    );
    // A janken after turn 1 names the rule's cause; overridden, Ben becomes first.
    t.refused_then_overridden(
        Move::Janken { winner: BEN },
        "rockman-exe.phase-order",
        &["Janken decides the first player only on turn 1"],
        &["じゃんけんで勝ったほうが先攻"],
    );
    assert_eq!(t.s().first, Some(BEN));
}

#[test]
fn refusals_transfer_onto_an_occupied_square_and_out_of_turn() {
    // Given Aki's transfer with his navi on the centre (1,1),
    let mut t = Table::new();
    // When he puts a virus on the centre, the square is taken;
    t.refused_then_overridden(
        transfer(AKI, "RX13", 1, 1),
        "rockman-exe.transfer-empty",
        &["Aki puts a card on", "アオゾラ", "empty square"],
        &["Aki が", "空いてるマス"],
    );
    // overridden, the virus replaces the navi, which goes to the discard pile.
    assert_eq!(t.s().at(AKI, sq(1, 1)).unwrap().card, "RX13");
    assert!(t.s().players[AKI].discard.contains(&"RX01".to_owned()));
    // Ben ending the transfer during Aki's is out of order; overridden, Aki's transfer ends.
    t.refused_then_overridden(
        Move::EndTransfer { player: BEN },
        "rockman-exe.transfer-order",
        &["it is Aki's transfer now"],
        &["いまは Aki の転送です"],
    );
    assert_eq!(t.s().step, Step::TransferSecond);
    // The exchange before the end phase is at the wrong phase.
    t.refused_then_overridden(
        Move::Exchange {
            player: AKI,
            discard: CardList::default(),
        },
        "rockman-exe.phase-order",
        &["The exchange", "end (3)"],
        &["交換", "エンドフェイズ (3)"],
    );
    // Ending the end-phase effects outside the end phase too; overridden, nothing changes.
    t.refused_then_overridden(
        Move::EndEffects {},
        "rockman-exe.phase-order",
        &["Finishing the end-phase effects"],
        &["エンドフェイズの効果の処理の終了"],
    );
    assert_eq!(t.s().step, Step::TransferSecond);
    // A pass outside the battle phase changes nothing either.
    t.refused_then_overridden(
        Move::Pass { player: BEN },
        "rockman-exe.phase-order",
        &["A pass", "the battle phase"],
        &["パス", "バトルフェイズ"],
    );
    assert_eq!(t.s().step, Step::TransferSecond);
}

#[test]
fn example_8_transfer_limits_lv2_level_and_evolution() {
    // Given the Lv2 rules,
    let mut t = Table::with(json!({"lv2_virus_limit": true, "lv2_evolution": true}));
    // when the first player places 1 virus and 1 chip and tries a 2nd virus,
    t.play(transfer(AKI, "RX08", 0, 0));
    t.play(Move::PlaceChip { player: AKI });
    // then the 2nd virus is refused, and so is a 2nd chip.
    assert_eq!(
        t.refused(transfer(AKI, "RX13", 2, 0)),
        vec!["rockman-exe.transfer-character"]
    );
    assert_eq!(
        t.refused(Move::PlaceChip { player: AKI }),
        vec!["rockman-exe.transfer-chip"]
    );
    t.finish_turn();
    // Given Aki at HP 120 in the next transfer phase,
    t.adjust(Some(AKI), "hp", 120);
    t.finish_turn();
    assert_eq!(t.s().first, Some(AKI));
    // when he places a level-2 virus, then it is refused,
    assert_eq!(
        t.refused(transfer(AKI, "RX09", 2, 0)),
        vec!["rockman-exe.lv2-virus-level"]
    );
    // and evolving his level-1 ツララン into its printed level-2 form is allowed.
    t.play(Move::Evolve {
        player: AKI,
        square: sq(0, 0),
        card: "RX09".into(),
    });
    assert_eq!(t.s().at(AKI, sq(0, 0)).unwrap().card, "RX09");
    assert!(t.s().players[AKI].discard.contains(&"RX08".to_owned()));
    // The evolution was the turn's character placement.
    assert_eq!(
        t.refused(transfer(AKI, "RX13", 2, 0)),
        vec!["rockman-exe.transfer-character"]
    );
}

// ---- the optional rules ----

#[test]
fn lv1_off_allows_any_chip_level() {
    // Given no Lv1 rule, when Aki at HP 200 uses a level-3 chip, then it is allowed.
    let mut t = Table::new();
    t.play(Move::PlaceChip { player: AKI });
    t.end_transfers();
    t.play(Move::UseChip {
        player: AKI,
        card: "RX25".into(), // 流れ星: level 3, attack 60, any
        from: None,
        target: Squares(vec![sq(1, 1)]),
        bonus: 0,
    });
    // and its 60 comes off Ben's gauge (his navi stands on (1,1)).
    assert_eq!(t.hp(), (200, 140));
}

#[test]
fn lv2_off_refuses_evolution_and_allows_any_virus_level() {
    // Given no Lv2 rules, a level-3 virus may be placed at HP 200,
    let mut t = Table::new();
    t.play(transfer(AKI, "RX15", 0, 0));
    t.finish_turn();
    t.play(end_transfer(BEN));
    t.play(transfer(AKI, "RX08", 2, 0));
    t.finish_turn();
    t.play(end_transfer(BEN));
    // but evolution is refused as a rule not in play.
    let rules = t.refused(Move::Evolve {
        player: AKI,
        square: sq(2, 0),
        card: "RX09".into(),
    });
    assert_eq!(rules, vec!["rockman-exe.lv2-evolution"]);
}

#[test]
fn lv2_evolution_needs_the_printed_link() {
    // Given the Lv2 evolution rule and Aki's ツララン on (0,0) from an earlier turn,
    let mut t = Table::with(json!({"lv2_evolution": true}));
    t.play(transfer(AKI, "RX08", 0, 0));
    t.finish_turn();
    t.play(end_transfer(BEN));
    // When ツララン (RX08) "evolves" into ハネムシ改 (RX14), then the card does not say so.
    assert_eq!(
        t.refused(Move::Evolve {
            player: AKI,
            square: sq(0, 0),
            card: "RX14".into(),
        }),
        vec!["rockman-exe.evolution-link"]
    );
}

#[test]
fn lv3_style_cards() {
    // Given the Lv3 rule,
    let mut t = Table::with(json!({"lv3_styles": true}));
    // when Aki places a virus and a chip and attaches a style to his navi,
    t.play(transfer(AKI, "RX08", 0, 0));
    t.play(Move::PlaceChip { player: AKI });
    t.play(Move::AttachStyle {
        player: AKI,
        card: "RX31".into(),
        square: sq(1, 1),
    });
    // then the style is extra to the character and chip, but a 2nd one is refused;
    assert_eq!(
        t.s().at(AKI, sq(1, 1)).unwrap().style.as_deref(),
        Some("RX31")
    );
    assert_eq!(
        t.refused(Move::AttachStyle {
            player: AKI,
            card: "RX33".into(),
            square: sq(1, 1),
        }),
        vec!["rockman-exe.transfer-style"]
    );
    // a style never goes on a virus (a rule: the card could be put there);
    let v = t.violation(
        Move::AttachStyle {
            player: AKI,
            card: "RX33".into(),
            square: sq(0, 0),
        },
        "rockman-exe.style-navi",
    );
    assert!(
        v.sentence.contains("(0,0)") && v.sentence.contains("a virus card"),
        "{v:?}"
    );
    assert!(v.sentence_ja.contains("ウイルスカード"), "{v:?}");
    // and next turn a new style replaces the old one, which goes to the discard pile.
    t.finish_turn();
    t.play(end_transfer(BEN));
    t.play(Move::AttachStyle {
        player: AKI,
        card: "RX33".into(),
        square: sq(1, 1),
    });
    assert_eq!(
        t.s().at(AKI, sq(1, 1)).unwrap().style.as_deref(),
        Some("RX33")
    );
    assert!(t.s().players[AKI].discard.contains(&"RX31".to_owned()));
    // ヨイヤミスタイル has an end-phase effect: END (1) asks for it.
    t.end_transfers();
    t.end_battle();
    assert_eq!(t.s().step, Step::EndEffects);
    assert!(
        t.m.context()
            .prompts
            .iter()
            .any(|p| p.text.contains("ヨイヤミスタイル"))
    );
}

#[test]
fn lv3_off_refuses_style_cards() {
    // Given no Lv3 rule, when Aki attaches a style to his navi, then it is refused.
    let t = Table::new();
    assert_eq!(
        t.refused(Move::AttachStyle {
            player: AKI,
            card: "RX31".into(),
            square: sq(1, 1),
        }),
        vec!["rockman-exe.lv3-style"]
    );
}

// ---- refusals ----

#[test]
fn transfer_order_first_player_then_second() {
    // Given Aki transfers first, when Ben places a card, then it is refused.
    let t = Table::new();
    assert_eq!(
        t.refused(transfer(BEN, "RX05", 0, 0)),
        vec!["rockman-exe.transfer-order"]
    );
}

#[test]
fn battle_actions_alternate_and_belong_to_the_battle_phase() {
    // Given the transfer phase, when Aki attacks, then the attack is out of phase;
    // given the battle, when Ben acts first, then it is not his action.
    let mut t = Table::new();
    // An attack in the transfer phase is out of phase.
    assert!(
        t.refused(attack(AKI, 1, 1))
            .contains(&"rockman-exe.phase-order".to_owned())
    );
    t.end_transfers();
    // Ben may not act first.
    assert_eq!(t.refused(pass(BEN)), vec!["rockman-exe.turn-order"]);
    // A pass by Aki, then Ben acts; Aki's pass then Ben's pass end the phase (two in a row).
    t.play(pass(AKI));
    assert_eq!(t.s().active, Some(BEN));
    t.play(pass(BEN));
    assert_eq!(t.s().step, Step::EndEffects);
}

#[test]
fn an_acted_card_cannot_attack_again_and_targets_must_be_in_range() {
    // Given the battle phase, when Aki's navi attacks twice, then the second is refused (acted);
    // when Ben's adjacent navi attacks from the middle rank, then nothing is in range.
    let mut t = Table::new();
    t.end_transfers();
    // Aki's navi (lane) has nothing in its lane but Ben's navi on (1,1): it hits it.
    t.play(attack(AKI, 1, 1));
    assert_eq!(t.hp(), (200, 170));
    let battler = |player| Move::Battler {
        player,
        card: "RX27".into(),
    };
    t.play(battler(BEN));
    assert_eq!(
        t.refused(attack(AKI, 1, 1)),
        vec!["rockman-exe.attack-acted"]
    );
    t.play(battler(AKI));
    // Ben's navi (adjacent) stands in the middle rank: out of range.
    assert_eq!(
        t.refused(attack(BEN, 1, 1)),
        vec!["rockman-exe.attack-range"]
    );
    // An override applies it anyway: the navi is acted and nothing is hit.
    t.override_play(attack(BEN, 1, 1));
    assert_eq!(t.tracker(Some(BEN), "acted-1-1"), 1);
    assert_eq!(t.hp(), (200, 170));
}

#[test]
fn a_move_costs_a_discard() {
    // Given the battle phase, when Aki moves his navi without discarding, then it is refused.
    let mut t = Table::new();
    t.end_transfers();
    assert_eq!(
        t.refused(move_card(AKI, (1, 1), (1, 0), None)),
        vec!["rockman-exe.move-cost"]
    );
}

#[test]
fn the_exchange_is_made_once() {
    // Given END (3), when Aki exchanges 1 card, then he draws back to 5; when he exchanges again,
    // then it is refused.
    let mut t = Table::new();
    t.end_transfers();
    t.end_battle();
    t.play(Move::EndEffects {});
    let one = t.s().players[AKI].unplayed[0].clone();
    t.play(Move::Exchange {
        player: AKI,
        discard: CardList(vec![one.clone()]),
    });
    assert_eq!(t.s().players[AKI].hand, 5);
    assert_eq!(t.s().players[AKI].deck, 23);
    assert_eq!(
        t.refused(Move::Exchange {
            player: AKI,
            discard: CardList::default(),
        }),
        vec!["rockman-exe.exchange-once"]
    );
}

#[test]
fn playing_a_card_not_in_the_deck_is_impossible() {
    // Given Aki's deck has no オオヅチ, when he transfers one (even with an override), then it is
    // impossible.
    let t = Table::new();
    let r = t.m.prepare(&Input::Move {
        mv: transfer(AKI, "RX12", 0, 0), // オオヅチ is only in Ben's deck
        override_reason: Some("x".into()),
    });
    assert!(matches!(r, Err(Rejection::Impossible(_))), "{r:?}");
}

#[test]
fn effects_are_entered_and_logged_with_their_changes() {
    // Given Aki's virus on (0,0), when Ben enters 冬木ゲン's effect and Aki a Heal Drop, then the
    // virus is acted, Aki's gauge is +30 and the log says what changed.
    let mut t = Table::new();
    t.play(transfer(AKI, "RX13", 0, 0));
    t.end_transfers();
    // 冬木ゲン: an enemy virus becomes acted — entered as an effect on Ben's view of the square.
    let mut mv = effect(BEN);
    if let Move::Effect {
        square,
        opp,
        acted,
        note,
        ..
    } = &mut mv
    {
        *square = Some(sq(0, 0));
        *opp = true;
        *acted = Some(true);
        *note = "冬木ゲン".into();
    }
    t.play(mv);
    assert!(t.s().at(AKI, sq(0, 0)).unwrap().acted);
    let log = cards::matches::AnyMatch::log(&t.m);
    assert!(
        log.last().unwrap().text.contains("acted"),
        "{}",
        log.last().unwrap().text
    );
    // Heal Drop: HP +30.
    let mut heal = effect(AKI);
    if let Move::Effect { hp, .. } = &mut heal {
        *hp = 30;
    }
    t.play(heal);
    assert_eq!(t.hp(), (230, 200));
}

#[test]
fn setup_needs_legal_decks_and_known_rules() {
    // Given a 29-card deck or an unknown house rule, when the match is set up, then it is refused;
    // when a die is thrown, then it is a free roll (the game asks for no dice).
    let mut h = header(Value::Null);
    h.players[0].deck.pop();
    let e = Match::<Rockman>::new(h, &cat()).unwrap_err();
    assert!(e.to_string().contains("exactly 30"), "{e}");
    let e = Match::<Rockman>::new(header(json!({"lv9": true})), &cat()).unwrap_err();
    assert!(e.to_string().contains("lv9"), "{e}");
    // The game asks for no dice: a die is a free roll.
    let mut t = Table::new();
    let p =
        t.m.prepare(&Input::Roll {
            roll: cards::core::Roll {
                sides: 6,
                value: 3,
                source: cards::core::DieSource::Typed,
                seat: None,
                throw: None,
            },
        })
        .unwrap();
    assert_eq!(p.effect(), &cards::matches::EntryEffect::FreeRoll);
    assert!(t.m.commit(p));
    t.play(end_transfer(AKI));
}

// ---- house rules ----

#[test]
fn house_rule_equal_attack_is_blocked() {
    // Given R1's reading (attack must exceed defence),
    let mut t = Table::with(json!({"equal_attack_passes": false}));
    with_30_50_virus(&mut t);
    // when Aki's navi hits the 30/50 virus with 30, then it is blocked.
    t.play(attack(AKI, 1, 1));
    assert_eq!(t.tracker(Some(BEN), "damage-1-0"), 0);
}

#[test]
fn house_rule_pass_is_final() {
    // Given pass-is-final, when Aki passes, then Ben acts alone until he passes too.
    let mut t = Table::with(json!({"battle_end": "pass-is-final"}));
    t.end_transfers();
    t.play(pass(AKI));
    // Ben acts alone from now on.
    t.play(Move::Battler {
        player: BEN,
        card: "RX27".into(),
    });
    assert_eq!(t.s().active, Some(BEN));
    assert_eq!(t.refused(pass(AKI)), vec!["rockman-exe.turn-order"]);
    t.play(pass(BEN));
    assert_eq!(t.s().step, Step::EndEffects);
}

#[test]
fn house_rule_moves_may_swap() {
    // Given moves onto occupied squares allowed, when Aki moves his virus onto his navi, then they
    // swap.
    let mut t = Table::with(json!({"move_needs_empty_square": false}));
    t.play(transfer(AKI, "RX13", 0, 1));
    t.end_transfers();
    let cost = t.s().players[AKI].unplayed[0].clone();
    t.play(move_card(AKI, (0, 1), (1, 1), Some(&cost)));
    assert_eq!(t.s().at(AKI, sq(1, 1)).unwrap().card, "RX13");
    assert_eq!(t.s().at(AKI, sq(0, 1)).unwrap().card, "RX01");
}

#[test]
fn house_rule_deck_out_only_in_the_draw_phase() {
    // Given an empty deck, when an effect draws a card, then the penalty applies only with
    // deck_out_any_draw.
    for (any, hp) in [(true, 170), (false, 200)] {
        let mut t = Table::with(json!({"deck_out_any_draw": any}));
        t.end_transfers();
        t.adjust(Some(AKI), "deck", 0);
        let mut mv = effect(AKI);
        if let Move::Effect { draw, .. } = &mut mv {
            *draw = 1;
        }
        t.play(mv);
        assert_eq!(t.hp().0, hp, "deck_out_any_draw={any}");
    }
}

#[test]
fn house_rules_hp_cap_starting_hand_and_area_size() {
    // Given an HP cap of 200, a starting hand of 2 and 5×5 areas,
    let mut t =
        Table::with(json!({"hp_cap": 200, "starting_hand": 2, "area_cols": 5, "area_rows": 5}));
    // The navis stand on the centre of a 5×5 area; the first draw phase drew 3 more.
    assert_eq!(t.s().at(AKI, sq(2, 2)).unwrap().card, "RX01");
    assert_eq!(t.s().players[AKI].hand, 5);
    assert_eq!(t.s().players[AKI].deck, 24);
    let mut heal = effect(AKI);
    if let Move::Effect { hp, .. } = &mut heal {
        *hp = 30;
    }
    t.play(heal);
    assert_eq!(t.hp().0, 200);
}

#[test]
fn house_rule_battler_stays_in_play() {
    // Given each battler setting, when Aki plays a battler, then it stays in play or is discarded.
    for stays in [false, true] {
        let mut t = Table::with(json!({"battler_stays_in_play": stays}));
        t.end_transfers();
        t.play(Move::Battler {
            player: AKI,
            card: "RX27".into(),
        });
        let p = &t.s().players[AKI];
        assert_eq!(p.battler.is_some(), stays);
        assert_eq!(p.discard.is_empty(), stays);
    }
}

#[test]
fn house_rules_transfer_slots() {
    // Given evolution outside the character slot and styles inside it, when Aki places a virus and
    // evolves it, then that is allowed, and a style after them is refused.
    // Evolution outside the character slot; a style inside it.
    let mut t = Table::with(json!({
        "lv2_evolution": true, "lv3_styles": true,
        "evolution_uses_character": false, "style_uses_character": true
    }));
    t.play(transfer(AKI, "RX08", 0, 0));
    t.play(Move::Evolve {
        player: AKI,
        square: sq(0, 0),
        card: "RX09".into(),
    });
    assert_eq!(
        t.refused(Move::AttachStyle {
            player: AKI,
            card: "RX31".into(),
            square: sq(1, 1),
        }),
        vec!["rockman-exe.transfer-character"]
    );
}

#[test]
fn house_rules_chip_zone_cap_and_same_turn_use() {
    // Given a chip zone of 1 and no same-turn use, when Aki uses a chip placed this turn, then it
    // is refused; when he places a 2nd chip next turn, then it is refused; then he may use it.
    let mut t = Table::with(json!({"chip_zone_cap": 1, "chip_same_turn": false}));
    t.play(Move::PlaceChip { player: AKI });
    t.end_transfers();
    assert_eq!(
        t.refused(chip(AKI, "RX17", (1, 1))),
        vec!["rockman-exe.chip-same-turn"]
    );
    t.finish_turn();
    t.play(end_transfer(BEN));
    assert_eq!(
        t.refused(Move::PlaceChip { player: AKI }),
        vec!["rockman-exe.chip-zone-cap"]
    );
    t.end_transfers();
    t.play(pass(BEN));
    t.play(chip(AKI, "RX17", (1, 1)));
}

#[test]
fn house_rule_order_counts_styles() {
    // Given Aki's navi with a style and Ben's without, when the next turn's order is decided, then
    // with order_counts_styles Ben (fewer cards) goes first, otherwise it is a janken.
    for (counts, first) in [(false, None), (true, Some(BEN))] {
        let mut t = Table::with(json!({"lv3_styles": true, "order_counts_styles": counts}));
        t.play(Move::AttachStyle {
            player: AKI,
            card: "RX31".into(),
            square: sq(1, 1),
        });
        t.end_transfers();
        t.end_battle();
        t.play(Move::EndEffects {});
        for seat in [AKI, BEN] {
            t.play(Move::Exchange {
                player: seat,
                discard: CardList::default(),
            });
        }
        assert_eq!(t.s().first, first, "order_counts_styles={counts}");
    }
}

// ---- the documented script ----

#[test]
fn the_documented_demo_script_plays_a_whole_match() {
    // Given the documented script, when it runs like `tableside play --no-store`, then Aki wins and
    // the log holds an override and an undo.
    use cards::script::{Script, run_step};
    let text = include_str!("../../docs/examples/rockman-demo.script");
    let script = Script::parse(text).unwrap();
    let cat = cat();
    let mut m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    for (line, step) in &script.steps {
        run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(matches!(m.outcome(), Some(Outcome::Win { winner: 0, .. })));
    let log = m.log();
    assert!(log.iter().any(|l| !l.overridden.is_empty()));
    assert!(log.iter().any(|l| l.undone));
}

// ---------------------------------------------------------------------------------------------
// A card of the wrong kind is a rule the table can override, its sentence naming the player,
// the card and its kind

#[test]
fn wrong_kind_opening_navi() {
    // Given a new match, when Aki puts a virus on the centre square as his opening navi,
    let mut t = Table {
        m: Match::new(header(Value::Null), &cat()).expect("legal decks"),
    };
    t.refused_then_overridden(
        Move::OpeningNavi {
            player: AKI,
            card: "RX08".into(),
        },
        "rockman-exe.opening-navi",
        &["Aki puts ツララン", "a virus card", "as the opening navi"],
        &["Aki が最初のナビとして中央のマスに置いた ツララン はウイルスカードです"],
    );
    // then overridden, the virus stands on the centre square.
    assert_eq!(
        t.s().at(AKI, t.s().centre()).map(|c| c.card.as_str()),
        Some("RX08")
    );
}

#[test]
fn wrong_kind_transfer_chip_onto_the_area() {
    let mut t = Table::new();
    t.refused_then_overridden(
        transfer(AKI, "RX17", 0, 0),
        "rockman-exe.transfer-kind",
        &["Aki puts スパークアロー", "a chip card, on the area"],
        &["Aki がエリアに置いた スパークアロー はチップカードです"],
    );
    assert_eq!(
        t.s().at(AKI, sq(0, 0)).map(|c| c.card.as_str()),
        Some("RX17")
    );
}

#[test]
fn wrong_kind_evolution_of_a_navi_and_into_a_chip() {
    let mut t = Table::new();
    // Evolving the navi on the centre square:
    t.refused_then_overridden(
        Move::Evolve {
            player: AKI,
            square: sq(1, 1),
            card: "RX09".into(),
        },
        "rockman-exe.evolution-virus",
        &[
            "Aki evolves アオゾラ.EXE",
            "on (1,1), a navi card: only a virus evolves",
        ],
        &["Aki が (1,1) の アオゾラ.EXE を進化させようとしています。これはナビカードです"],
    );
    // evolving a virus into a chip card:
    let mut t = Table::new();
    t.play(transfer(AKI, "RX08", 0, 0));
    t.refused_then_overridden(
        Move::Evolve {
            player: AKI,
            square: sq(0, 0),
            card: "RX17".into(),
        },
        "rockman-exe.evolution-virus",
        &["Aki evolves ツララン", "into スパークアロー", "a chip card"],
        &["Aki が ツララン をチップカードの スパークアロー に進化させようとしています"],
    );
}

#[test]
fn wrong_kind_style_card() {
    let mut t = Table::with(serde_json::json!({"lv3_styles": true}));
    t.refused_then_overridden(
        Move::AttachStyle {
            player: AKI,
            card: "RX17".into(),
            square: sq(1, 1),
        },
        "rockman-exe.style-kind",
        &[
            "Aki attaches スパークアロー",
            "a chip card, to アオゾラ.EXE",
        ],
        &["Aki が アオゾラ.EXE にスタイルカードとしてつけた スパークアロー はチップカードです"],
    );
}

#[test]
fn wrong_kind_battler_and_chip_zone_card() {
    // Given Aki placed a chip face down and the battle phase began,
    let mut t = Table::new();
    t.play(Move::PlaceChip { player: AKI });
    t.play(end_transfer(AKI));
    t.play(end_transfer(BEN));
    assert_eq!(t.s().step, Step::Battle);
    // when he plays a chip from hand as a battler (action D),
    t.refused_then_overridden(
        Move::Battler {
            player: AKI,
            card: "RX17".into(),
        },
        "rockman-exe.battler-kind",
        &["Aki plays スパークアロー", "a chip card, as a battler card"],
        &["Aki がバトラーカードとして使った スパークアロー はチップカードです"],
    );
    // and, after Ben passes, the card he turns up from his chip zone is a battler.
    t.play(pass(BEN));
    t.refused_then_overridden(
        Move::UseChip {
            player: AKI,
            card: "RX27".into(),
            from: None,
            target: Squares::default(),
            bonus: 0,
        },
        "rockman-exe.chip-kind",
        &["Aki uses 春川ユウ", "from the chip zone, a battler card"],
        &["Aki がチップ置き場から使った 春川ユウ はバトラーカードです"],
    );
    // Overridden, the chip zone card is used up.
    assert_eq!(t.s().players[AKI].chips, 0);
}

// ---------------------------------------------------------------------------------------------
// Every rule's sentence names its cause (the player, the card, the square, the number)

/// Then: `mv` is refused by `rule` and both sentences hold every needle.
fn names_cause(t: &Table, mv: Move, rule: &str, en: &[&str], ja: &[&str]) {
    let v = t.violation(mv, rule);
    common::names_the_cause(std::slice::from_ref(&v), rule, en, ja);
}

#[test]
fn sentences_of_the_transfer_rules() {
    let mut t = Table::new();
    // Ben places while it is Aki's (the first player's) transfer,
    names_cause(
        &t,
        transfer(BEN, "RX05", 0, 0),
        "rockman-exe.transfer-order",
        &["Ben places out of turn", "it is Aki's transfer now"],
        &["Ben の転送の番ではありません", "いまは Aki の転送です"],
    );
    // a second character and a second chip the same transfer,
    t.play(transfer(AKI, "RX08", 0, 0));
    t.play(Move::PlaceChip { player: AKI });
    names_cause(
        &t,
        transfer(AKI, "RX13", 0, 1),
        "rockman-exe.transfer-character",
        &["Aki already placed a character this transfer phase"],
        &["Aki はこの転送フェイズですでにキャラを置きました"],
    );
    names_cause(
        &t,
        Move::PlaceChip { player: AKI },
        "rockman-exe.transfer-chip",
        &["Aki already placed a chip this transfer phase"],
        &["Aki はこの転送フェイズですでにチップを置きました"],
    );
    // an evolution with Lv2 evolution off,
    names_cause(
        &t,
        Move::Evolve {
            player: AKI,
            square: sq(0, 0),
            card: "RX09".into(),
        },
        "rockman-exe.lv2-evolution",
        &["Aki evolves ツララン", "into ツララン改", "not in play"],
        &["Aki が ツララン を ツララン改 に進化させようとしています"],
    );
    // and a style card with Lv3 off.
    names_cause(
        &t,
        Move::AttachStyle {
            player: AKI,
            card: "RX31".into(),
            square: sq(1, 1),
        },
        "rockman-exe.lv3-style",
        &["Aki attaches ミカヅキスタイル", "to アオゾラ.EXE"],
        &["Aki が アオゾラ.EXE に ミカヅキスタイル をつけようとしています"],
    );
}

#[test]
fn sentences_of_the_lv_rules() {
    let mut t = Table::with(json!({
        "lv1_chip_limit": true, "lv2_virus_limit": true, "lv2_evolution": true, "lv3_styles": true
    }));
    // A level-2 virus at HP 200,
    names_cause(
        &t,
        transfer(AKI, "RX09", 0, 0),
        "rockman-exe.lv2-virus-level",
        &[
            "with HP 200 Aki may transfer viruses up to level 1",
            "ツララン改",
            "is level 2",
        ],
        &[
            "ＨＰ200の Aki が転送できるウイルスはレベル1まで",
            "ツララン改 はレベル2",
        ],
    );
    // an evolution into a virus the card does not name,
    t.play(transfer(AKI, "RX08", 0, 0));
    names_cause(
        &t,
        Move::Evolve {
            player: AKI,
            square: sq(0, 0),
            card: "RX14".into(),
        },
        "rockman-exe.evolution-link",
        &["ツララン", "evolves into ツララン改", "not into ハネムシ改"],
        &["ツララン が進化するのは（カードのとおり）ツララン改 で、ハネムシ改 ではありません"],
    );
    // a second style the same transfer,
    t.play(Move::AttachStyle {
        player: AKI,
        card: "RX31".into(),
        square: sq(1, 1),
    });
    names_cause(
        &t,
        Move::AttachStyle {
            player: AKI,
            card: "RX33".into(),
            square: sq(1, 1),
        },
        "rockman-exe.transfer-style",
        &["Aki already attached a style card this transfer phase"],
        &["Aki はこの転送フェイズですでにスタイルカードを付けました"],
    );
    // and a level-2 chip at HP 200.
    t.play(Move::PlaceChip { player: AKI });
    t.end_transfers();
    names_cause(
        &t,
        chip(AKI, "RX21", (1, 1)),
        "rockman-exe.lv1-chip-level",
        &[
            "with HP 200 Aki may use chips up to level 1",
            "雷ボール",
            "is level 2",
        ],
        &[
            "ＨＰ200の Aki が使えるチップはレベル1まで",
            "雷ボール はレベル2",
        ],
    );
}

#[test]
fn sentences_of_the_chip_house_rules() {
    let mut t = Table::with(json!({"chip_zone_cap": 1, "chip_same_turn": false}));
    t.play(Move::PlaceChip { player: AKI });
    t.end_transfers();
    // A chip used the turn it was placed,
    names_cause(
        &t,
        Move::UseChip {
            player: AKI,
            card: "RX18".into(),
            from: None,
            target: Squares(vec![sq(1, 1)]),
            bonus: 0,
        },
        "rockman-exe.chip-same-turn",
        &["Aki's chip zone holds 1 chip(s), all placed this turn (turn 1)"],
        &["Aki のチップ置き場の1枚はどれもこのターン（ターン1）に置いたもの"],
    );
    // and next turn a chip beyond the cap of 1.
    t.finish_turn();
    if t.s().first != Some(AKI) {
        t.play(end_transfer(BEN));
    }
    names_cause(
        &t,
        Move::PlaceChip { player: AKI },
        "rockman-exe.chip-zone-cap",
        &["at most 1 chips; Aki has 1"],
        &["チップ置き場は1枚までです。Aki は1枚です"],
    );
}

#[test]
fn sentences_of_the_battle_rules() {
    let mut t = Table::new();
    t.play(transfer(AKI, "RX13", 0, 1));
    t.end_transfers();
    // Ben acts on Aki's action,
    names_cause(
        &t,
        pass(BEN),
        "rockman-exe.turn-order",
        &["Ben acts out of turn", "it is Aki's action"],
        &["Ben の行動の番ではありません", "いまは Aki の行動です"],
    );
    // a diagonal move, a move onto the navi, a move with no discard,
    let cost = t.s().players[AKI].unplayed[0].clone();
    names_cause(
        &t,
        move_card(AKI, (0, 1), (1, 0), Some(&cost)),
        "rockman-exe.move-orthogonal",
        &["Aki moves a card from (0,1) to (1,0)"],
        &["Aki が (0,1) から (1,0) へカードを移動しました"],
    );
    names_cause(
        &t,
        move_card(AKI, (0, 1), (1, 1), Some(&cost)),
        "rockman-exe.move-empty",
        &["(1,1) holds アオゾラ.EXE"],
        &["(1,1) には アオゾラ.EXE があります"],
    );
    let hand = t.s().players[AKI].hand;
    names_cause(
        &t,
        move_card(AKI, (0, 1), (0, 0), None),
        "rockman-exe.move-cost",
        &[&format!("Aki holds {hand}")],
        &[&format!("Aki の手札は{hand}枚です")],
    );
    // an attack by an acted card,
    t.adjust(Some(AKI), "acted-1-1", 1);
    names_cause(
        &t,
        attack(AKI, 1, 1),
        "rockman-exe.attack-acted",
        &["アオゾラ.EXE", "on (1,1) is acted"],
        &["(1,1) の アオゾラ.EXE は行動済みです"],
    );
    // Ben's navi (adjacent) stands in the middle rank: nothing in range.
    t.play(Move::Battler {
        player: AKI,
        card: "RX27".into(),
    });
    names_cause(
        &t,
        attack(BEN, 1, 1),
        "rockman-exe.attack-range",
        &["カガリビ.EXE", "there is none from (1,1)"],
        &["カガリビ.EXE が攻撃するのは", "(1,1) からはありません"],
    );
}

#[test]
fn sentences_of_the_exchange_rule() {
    let mut t = Table::new();
    t.end_transfers();
    t.end_battle();
    if t.s().step == Step::EndEffects {
        t.play(Move::EndEffects {});
    }
    t.play(Move::Exchange {
        player: AKI,
        discard: CardList::default(),
    });
    names_cause(
        &t,
        Move::Exchange {
            player: AKI,
            discard: CardList::default(),
        },
        "rockman-exe.exchange-once",
        &["Aki already made the end-phase exchange"],
        &["Aki はすでにエンドフェイズの交換をしました"],
    );
}

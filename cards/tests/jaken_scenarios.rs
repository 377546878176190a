//! Jaken scenarios in given / when / then form: every worked example of `rules/jaken.md` §11,
//! every end condition, the deck rules and the house-rule settings.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::{Outcome, TrackerId};
use cards::game::{MatchHeader, PlayerConfig};
use cards::games::jaken::{Jaken, Move, Placement, Rules, Settlement, Step, check_deck};
use cards::matches::{Input, Match, Rejection};

/// A test catalogue with exact numbers: `n{a}{d}` is a cost-1 NM with ATK a / DEF d (tribe A),
/// `c{k}` a NM of cost k, `ej`/`et`/`er` EMs with each wind, `bga`/`bgb` BGs for tribes A / B.
fn catalogue() -> Catalogue {
    let mut t = String::from(
        "format = 1\ngame = \"jaken\"\n[set]\nid = \"test\"\nname_en = \"Test\"\nname_ja = \"テスト\"\n",
    );
    let mut card = |id: &str, kind: &str, body: &str| {
        t.push_str(&format!("[[cards]]\nid = \"{id}\"\nname_ja = \"{id}\"\nname_en = \"{id}\"\nkind = \"{kind}\"\n{body}\n"));
    };
    for a in 0..10 {
        for d in 0..10 {
            card(
                &format!("n{a}{d}"),
                "nm",
                &format!("cost = 1\natk = {a}\ndef = {d}\ntribe = \"A\""),
            );
        }
    }
    for k in 1..=7 {
        card(
            &format!("c{k}"),
            "nm",
            &format!("cost = {k}\natk = 1\ndef = 1\ntribe = \"A\""),
        );
    }
    card("tb", "nm", "cost = 1\natk = 2\ndef = 2\ntribe = \"B\"");
    card(
        "ej",
        "em",
        "cost = 1\natk = 2\ndef = 2\ntribe = \"A\"\nwind = \"jicha\"",
    );
    card(
        "et",
        "em",
        "cost = 1\natk = 2\ndef = 2\ntribe = \"A\"\nwind = \"tacha\"",
    );
    card(
        "er",
        "em",
        "cost = 1\natk = 2\ndef = 3\ntribe = \"A\"\nwind = \"ryancha\"",
    );
    card(
        "er2",
        "em",
        "cost = 1\natk = 1\ndef = 3\ntribe = \"A\"\nwind = \"ryancha\"",
    );
    card("bga", "bg", "target_tribe = \"A\"\nuse_limit = 2");
    card("bga2", "bg", "target_tribe = \"A\"\nuse_limit = 1");
    card("bgb", "bg", "target_tribe = \"B\"\nuse_limit = 1");
    Catalogue::load("test.toml", &t).expect("test catalogue loads")
}

/// A 15-card deck holding `cards` (in order), filled up with distinct `n{a}{d}` cards.
fn deck(cards: &[&str]) -> Vec<String> {
    let mut d: Vec<String> = cards.iter().map(|s| (*s).to_owned()).collect();
    let mut filler = (0..10).flat_map(|a| (0..10).map(move |b| format!("n{a}{b}")));
    while d.len() < 15 {
        let Some(f) = filler.next() else { break };
        if d.iter().filter(|c| **c == f).count() < 2 && !cards.contains(&f.as_str()) {
            d.push(f);
        }
    }
    d
}

struct Table {
    m: Match<Jaken>,
}

impl Table {
    /// Given: Aki (seat 0) and Ben (seat 1) with these decks; Aki wins the setup janken.
    fn new(a: &[&str], b: &[&str]) -> Table {
        Table::with_rules(a, b, Rules::default())
    }

    fn with_rules(a: &[&str], b: &[&str], rules: Rules) -> Table {
        let header = MatchHeader {
            game: cards::core::GameId::Jaken,
            catalogue: "test".into(),
            players: vec![
                PlayerConfig {
                    name: "Aki".into(),
                    deck_name: "a".into(),
                    deck: deck(a),
                },
                PlayerConfig {
                    name: "Ben".into(),
                    deck_name: "b".into(),
                    deck: deck(b),
                },
            ],
            rules: serde_json::to_value(rules).unwrap(),
        };
        let mut t = Table {
            m: Match::new(header, &catalogue()).expect("legal decks"),
        };
        t.play(Move::FirstParent { player: 0 });
        t
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

    fn input(&mut self, input: Input<Move>) -> Result<(), Rejection> {
        let p = self.m.prepare(&input)?;
        assert!(self.m.commit(p));
        Ok(())
    }

    /// The rule ids that refuse this move (the move is not applied).
    fn refused(&mut self, mv: Move) -> Vec<String> {
        match self.try_play(mv) {
            Err(Rejection::Refused { violations }) => {
                violations.into_iter().map(|v| v.rule).collect()
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    fn parent(&self) -> usize {
        self.m.state().parent.unwrap()
    }

    /// Plays the plan phase without BGs and reveals both monsters (parent's card first).
    fn reveal(&mut self, parent_card: &str, child_card: &str) {
        let p = self.parent();
        self.play(Move::PassBg { player: p });
        self.play(Move::FaceDown { player: 0 });
        self.play(Move::FaceDown { player: 1 });
        self.play(Move::Reveal {
            player: p,
            card: parent_card.into(),
        });
        self.play(Move::Reveal {
            player: 1 - p,
            card: child_card.into(),
        });
    }

    /// A whole battle with no effects: reveal, compare, end.
    fn battle(&mut self, parent_card: &str, child_card: &str) {
        self.reveal(parent_card, child_card);
        while self.m.state().step == Step::Effects {
            let s = self.m.state().pending_effects[0];
            self.play(Move::NoEffect { player: s });
        }
        self.play(Move::Compare {});
        if self.m.outcome().is_none() {
            self.play(Move::EndBattle {});
        }
    }

    fn sb(&self) -> (i32, i32) {
        (self.m.state().players[0].sb, self.m.state().players[1].sb)
    }
}

#[test]
fn example_1_nm_vs_nm() {
    // Given Aki is parent with ATK 3 / DEF 2 and Ben has ATK 2 / DEF 2,
    let mut t = Table::new(&["n32"], &["n22"]);
    // when the cards are compared,
    t.reveal("n32", "n22");
    t.play(Move::Compare {});
    // then Aki's attack succeeds (3 > 2, Ben pays 1) and Ben's fails (2 = 2): Aki 11, Ben 9.
    assert_eq!(t.sb(), (11, 9));
    let report = t.m.state().last_strike.clone().unwrap();
    assert_eq!(report.strikes, [1, 0]);
}

#[test]
fn example_2_em_vs_em_with_effects_parent_first() {
    // Given both reveal effect monsters whose (両家) effects apply,
    let mut t = Table::new(&["er"], &["er2"]);
    t.reveal("er", "er2");
    assert_eq!(t.m.state().step, Step::Effects);
    assert_eq!(t.m.state().pending_effects, vec![0, 1]);
    // when the child tries to resolve first, it is refused: effects start from the parent;
    let rules = t.refused(Move::Effect {
        player: 1,
        atk: 0,
        def: 2,
        opp_atk: 0,
        opp_def: 0,
        sb: 0,
        note: String::new(),
    });
    assert_eq!(rules, vec!["jaken.effect-order"]);
    // and after the effects (Aki 2/3 → 6/7; Ben 1/3 → 1/5),
    t.play(Move::Effect {
        player: 0,
        atk: 4,
        def: 4,
        opp_atk: 0,
        opp_def: 0,
        sb: 0,
        note: "count ≥ 4: add the count value".into(),
    });
    t.play(Move::Effect {
        player: 1,
        atk: 0,
        def: 2,
        opp_atk: 0,
        opp_def: 0,
        sb: 0,
        note: String::new(),
    });
    assert_eq!(t.m.state().step, Step::Compare);
    t.play(Move::Compare {});
    // then Aki's 6 > 5 takes 1 and Ben's 1 < 7 pays 1: Aki +2, Ben −2.
    assert_eq!(t.sb(), (12, 8));
}

#[test]
fn example_3_equal_values_move_nothing() {
    let mut t = Table::new(&["n43"], &["n34"]);
    t.reveal("n43", "n34");
    t.play(Move::Compare {});
    assert_eq!(t.sb(), (10, 10));
}

#[test]
fn example_4_failed_attack_is_costly() {
    // Given Aki ATK 2 / DEF 6 against Ben ATK 5 / DEF 8,
    let mut t = Table::new(&["n26"], &["n58"]);
    t.reveal("n26", "n58");
    t.play(Move::Compare {});
    // then Aki pays 2 (2 < 8) and Ben pays 5 (5 < 6): net Aki +3.
    assert_eq!(t.sb(), (13, 7));
    assert_eq!(t.m.state().last_strike.as_ref().unwrap().strikes, [-2, -5]);
}

#[test]
fn example_5_summon_cost_gate() {
    let mut t = Table::new(&["c3", "c4", "c1", "n11", "n12"], &["n11", "n12", "n13"]);
    t.battle("n11", "n11");
    t.battle("n12", "n12");
    // Given battle 3,
    assert_eq!(t.m.state().turn, 3);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    // when Aki reveals a cost-4 card, it is refused with the cost rule;
    assert_eq!(
        t.refused(Move::Reveal {
            player: 0,
            card: "c4".into()
        }),
        vec!["jaken.summon-cost"]
    );
    // cost 3 and cost 1 are legal.
    assert!(
        t.m.prepare(&Input::Move {
            mv: Move::Reveal {
                player: 0,
                card: "c1".into()
            },
            override_reason: None
        })
        .is_ok()
    );
    t.play(Move::Reveal {
        player: 0,
        card: "c3".into(),
    });
}

#[test]
fn example_6_immediate_loss_with_the_cap() {
    let mut t = Table::new(&["n72"], &["n02"]);
    // Given Ben has 1 SB,
    t.input(Input::Adjust {
        tracker: TrackerId::player(1, "sb"),
        value: 1,
        reason: "scenario setup".into(),
    })
    .unwrap();
    // when Aki's ATK 7 meets Ben's DEF 2 (due 5),
    t.reveal("n72", "n02");
    t.play(Move::Compare {});
    // then Ben pays his last 1 and Aki wins at once.
    assert_eq!(t.sb().1, 0);
    assert_eq!(t.m.state().step, Step::Over);
    assert!(matches!(
        t.m.outcome(),
        Some(Outcome::Win { winner: 0, .. })
    ));
    // And no further move is taken: it breaks the rule that the match is over, named by result.
    match t.try_play(Move::EndBattle {}) {
        Err(Rejection::Refused { violations }) => {
            assert_eq!(violations[0].rule, "match.over");
            assert!(
                violations[0].sentence.contains("Aki wins"),
                "{}",
                violations[0].sentence
            );
            assert!(violations[0].sentence_ja.contains("Aki の勝ち"));
        }
        other => panic!("expected the match.over refusal, got {other:?}"),
    }
}

#[test]
fn example_7_parent_alternation_and_wind() {
    // Given Aki won the setup janken, with 自家, 他家 and 両家 cards in his deck,
    let mut t = Table::new(&["ej", "ej", "et", "et", "er", "er"], &[]);
    let mut aki = (0..10).map(|d| format!("n0{d}"));
    let mut ben = (0..10).map(|d| format!("n0{d}"));
    let mut b = || ben.next().unwrap();
    // then Aki is parent in battles 1, 3, 5, 7, 9 and Ben in 2, 4, 6, 8, 10.
    // Battle 1 (Aki parent): 自家 works.
    assert_eq!((t.m.state().turn, t.parent()), (1, 0));
    t.reveal("ej", &b());
    assert_eq!(t.m.state().pending_effects, vec![0]);
    t.play(Move::NoEffect { player: 0 });
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    // Battle 2 (Ben parent): 自家 does not work, and entering its effect is refused by the wind rule.
    assert_eq!((t.m.state().turn, t.parent()), (2, 1));
    t.reveal(&b(), "ej");
    assert!(t.m.state().pending_effects.is_empty());
    assert_eq!(t.m.state().step, Step::Compare);
    let effect = Move::Effect {
        player: 0,
        atk: 2,
        def: 0,
        opp_atk: 0,
        opp_def: 0,
        sb: 0,
        note: String::new(),
    };
    assert_eq!(t.refused(effect), vec!["jaken.wind"]);
    // A normal monster has no effect at all.
    let nm_effect = Move::Effect {
        player: 1,
        atk: 1,
        def: 0,
        opp_atk: 0,
        opp_def: 0,
        sb: 0,
        note: String::new(),
    };
    assert_eq!(t.refused(nm_effect), vec!["jaken.no-effect"]);
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    // Battle 3 (Aki parent): 他家 does not work.
    assert_eq!((t.m.state().turn, t.parent()), (3, 0));
    t.reveal("et", &b());
    assert!(t.m.state().pending_effects.is_empty());
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    // Battle 4 (Ben parent): 他家 works.
    assert_eq!((t.m.state().turn, t.parent()), (4, 1));
    t.reveal(&b(), "et");
    assert_eq!(t.m.state().pending_effects, vec![0]);
    t.play(Move::NoEffect { player: 0 });
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    // Battles 5 and 6: 両家 works whoever is the parent.
    assert_eq!((t.m.state().turn, t.parent()), (5, 0));
    t.reveal("er", &b());
    assert_eq!(t.m.state().pending_effects, vec![0]);
    t.play(Move::NoEffect { player: 0 });
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    assert_eq!((t.m.state().turn, t.parent()), (6, 1));
    t.reveal(&b(), "er");
    assert_eq!(t.m.state().pending_effects, vec![0]);
    t.play(Move::NoEffect { player: 0 });
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    for battle in 7..=10 {
        assert_eq!(
            (t.m.state().turn, t.parent()),
            (battle, if battle % 2 == 1 { 0 } else { 1 })
        );
        let (x, y) = (aki.next().unwrap(), b());
        let (p, c) = if t.parent() == 0 { (x, y) } else { (y, x) };
        t.battle(&p, &c);
    }
    assert!(t.m.outcome().is_some());
}

#[test]
fn example_8_end_after_battle_10_more_sb_wins() {
    // Given SB 12 to 8 before battle 10 (entered by hand) and harmless cards (ATK 0) throughout,
    let zero = [
        "n00", "n00", "n01", "n01", "n02", "n02", "n03", "n03", "n04", "n04",
    ];
    let mut t = Table::new(&zero, &zero);
    t.input(Input::Adjust {
        tracker: TrackerId::player(0, "sb"),
        value: 12,
        reason: "example 8".into(),
    })
    .unwrap();
    t.input(Input::Adjust {
        tracker: TrackerId::player(1, "sb"),
        value: 8,
        reason: "example 8".into(),
    })
    .unwrap();
    for card in zero {
        t.battle(card, card);
    }
    // then after battle 10 the player with more SB wins.
    assert_eq!(t.m.state().step, Step::Over);
    assert_eq!(t.sb(), (12, 8));
    assert!(
        matches!(t.m.outcome(), Some(Outcome::Win { winner: 0, ref reason }) if reason.contains("12 to 8"))
    );
}

#[test]
fn example_8_equal_sb_after_battle_10_is_a_draw() {
    let zero = [
        "n00", "n00", "n01", "n01", "n02", "n02", "n03", "n03", "n04", "n04",
    ];
    let mut t = Table::new(&zero, &zero);
    for (i, card) in zero.iter().enumerate() {
        assert!(t.m.outcome().is_none(), "over before battle {}", i + 1);
        t.battle(card, card);
    }
    assert_eq!(t.sb(), (10, 10));
    assert!(matches!(t.m.outcome(), Some(Outcome::Draw { .. })));
    // The deck is used up exactly at battle 10.
    assert_eq!(t.m.state().players[0].deck, 0);
}

#[test]
fn example_9_card_flow() {
    let mut t = Table::new(&["bga", "n11"], &["n11"]);
    let s = |t: &Table, p: usize| (t.m.state().players[p].hand, t.m.state().players[p].deck);
    // After setup and the battle-1 draw: hand 6, deck 9.
    assert_eq!(s(&t, 0), (6, 9));
    assert_eq!(s(&t, 1), (6, 9));
    // The parent places a BG in P3 and a monster in P5: hand 4. The child: hand 5.
    t.play(Move::DeclareBg {
        player: 0,
        card: "bga".into(),
    });
    t.play(Move::PassBg { player: 1 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    assert_eq!(s(&t, 0).0, 4);
    assert_eq!(s(&t, 1).0, 5);
}

#[test]
fn example_10_bg_counter_rule_and_use_limit() {
    let mut t = Table::new(
        &["bga", "n11", "n12", "n13", "n14"],
        &["bgb", "n11", "n12", "n13", "n14"],
    );
    t.battle("n11", "n11");
    t.battle("n12", "n12");
    t.battle("n13", "n13");
    // Given battle 4 with Ben as parent, and Ben places no BG,
    assert_eq!((t.m.state().turn, t.parent()), (4, 1));
    t.play(Move::PassBg { player: 1 });
    // then Aki may not place one.
    assert_eq!(
        t.refused(Move::DeclareBg {
            player: 0,
            card: "bga".into()
        }),
        vec!["jaken.bg-counter"]
    );
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 1,
        card: "n00".into(),
    });
    t.play(Move::Reveal {
        player: 0,
        card: "n00".into(),
    });
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    // Battle 5, Aki parent declares; Ben may counter in P4.
    t.play(Move::DeclareBg {
        player: 0,
        card: "bga".into(),
    });
    assert_eq!(t.m.state().step, Step::ChildCounter);
    t.play(Move::DeclareBg {
        player: 1,
        card: "bgb".into(),
    });
    assert_eq!(t.m.state().step, Step::FaceDown);
    // Aki's BG (limit 2) used twice is turned face down.
    t.play(Move::UseBg {
        player: 0,
        uses: 1,
        atk: 1,
        def: 0,
    });
    t.play(Move::UseBg {
        player: 0,
        uses: 1,
        atk: 0,
        def: 1,
    });
    let bg = t.m.state().players[0].bg.clone().unwrap();
    assert_eq!((bg.uses_left, bg.face_up), (0, false));
    // A third use is impossible: nothing active.
    assert!(matches!(
        t.try_play(Move::UseBg {
            player: 0,
            uses: 1,
            atk: 1,
            def: 0
        }),
        Err(Rejection::Impossible(_))
    ));
    // Ben's BG is for tribe B; Ben reveals a tribe-A monster: using it is refused.
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 0,
        card: "n14".into(),
    }); // ATK 1 / DEF 4
    t.play(Move::Reveal {
        player: 1,
        card: "n14".into(),
    });
    assert_eq!(
        t.refused(Move::UseBg {
            player: 1,
            uses: 1,
            atk: 2,
            def: 0
        }),
        vec!["jaken.bg-tribe"]
    );
    // Aki's +1/+1 applies to his tribe-A monster: 2/5 vs 1/4 → Aki 2 < 4 pays 2; Ben 1 < 5 pays 1.
    t.play(Move::Compare {});
    assert_eq!(
        t.m.state().last_strike.as_ref().unwrap().values,
        [(2, 5), (1, 4)]
    );
}

#[test]
fn a_second_active_bg_is_refused_until_the_first_is_used_up() {
    let mut t = Table::new(&["bga", "bga", "n11"], &[]);
    t.play(Move::DeclareBg {
        player: 0,
        card: "bga".into(),
    });
    t.play(Move::PassBg { player: 1 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 0,
        card: "n11".into(),
    });
    t.play(Move::Reveal {
        player: 1,
        card: "n00".into(),
    });
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    t.play(Move::PassBg { player: 1 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 1,
        card: "n01".into(),
    });
    t.play(Move::Reveal {
        player: 0,
        card: "n00".into(),
    });
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    assert_eq!(
        t.refused(Move::DeclareBg {
            player: 0,
            card: "bga".into()
        }),
        vec!["jaken.bg-one-active"]
    );
}

#[test]
fn a_move_in_the_wrong_phase_is_refused_or_impossible() {
    let mut t = Table::new(&[], &[]);
    // Placing a monster while the parent may still declare a BG breaks the phase order.
    assert_eq!(
        t.refused(Move::FaceDown { player: 1 }),
        vec!["jaken.phase-order"]
    );
    // Comparing before anything is revealed cannot be computed at all.
    assert!(matches!(
        t.try_play(Move::Compare {}),
        Err(Rejection::Impossible(_))
    ));
    // Nor can a second janken.
    assert!(matches!(
        t.try_play(Move::FirstParent { player: 1 }),
        Err(Rejection::Impossible(_))
    ));
}

#[test]
fn an_unknown_or_unowned_card_is_impossible() {
    let mut t = Table::new(&[], &["c7"]);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    let e = t
        .try_play(Move::Reveal {
            player: 0,
            card: "nope".into(),
        })
        .unwrap_err();
    assert!(e.to_string().contains("in neither player's deck"), "{e}");
    // `c7` is in Ben's deck but not in Aki's.
    let e = t
        .try_play(Move::Reveal {
            player: 0,
            card: "c7".into(),
        })
        .unwrap_err();
    assert!(e.to_string().contains("no unplayed copy"), "{e}");
}

#[test]
fn override_applies_a_refused_move_and_logs_the_broken_rule() {
    let mut t = Table::new(&["c6"], &[]);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.input(Input::Move {
        mv: Move::Reveal {
            player: 0,
            card: "c6".into(),
        },
        override_reason: Some("house rule: first battle is free".into()),
    })
    .unwrap();
    assert_eq!(
        t.m.state().players[0].placement,
        Placement::Revealed("c6".into())
    );
    let last = t.m.entries().last().unwrap();
    let last_text = t.m.entry_text(t.m.entries().len() - 1);
    assert!(
        matches!(&last.effect, cards::matches::EntryEffect::Overridden(v) if v[0].rule == "jaken.summon-cost")
    );
    assert!(last_text.contains("house rule"), "{last_text}");
    // An empty reason is no override.
    let mut t = Table::new(&["c6"], &[]);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    let r = t.input(Input::Move {
        mv: Move::Reveal {
            player: 0,
            card: "c6".into(),
        },
        override_reason: Some("  ".into()),
    });
    assert!(matches!(r, Err(Rejection::Refused { .. })));
}

#[test]
fn undo_takes_back_the_last_entry_and_keeps_it_in_the_log() {
    let mut t = Table::new(&["n32"], &["n22"]);
    t.reveal("n32", "n22");
    let before = t.m.state().clone();
    t.play(Move::Compare {});
    assert_eq!(t.sb(), (11, 9));
    t.input(Input::Undo {
        reason: Some("we compared too early".into()),
    })
    .unwrap();
    assert_eq!(t.m.state(), &before);
    let log = cards::matches::AnyMatch::log(&t.m);
    let compare = &log[log.len() - 2];
    assert!(compare.undone && compare.text.contains("Compare"));
    assert!(log.last().unwrap().text.starts_with("undo #"));
    // Undo again takes back the reveal before it.
    t.input(Input::Undo { reason: None }).unwrap();
    assert_eq!(t.m.state().step, Step::Reveal);
}

#[test]
fn undo_after_the_end_reopens_the_match() {
    let mut t = Table::new(&["n72"], &["n02"]);
    t.input(Input::Adjust {
        tracker: TrackerId::player(1, "sb"),
        value: 1,
        reason: "setup".into(),
    })
    .unwrap();
    t.reveal("n72", "n02");
    t.play(Move::Compare {});
    assert!(t.m.outcome().is_some());
    t.input(Input::Undo { reason: None }).unwrap();
    assert!(t.m.outcome().is_none());
    assert_eq!(t.sb(), (10, 1));
}

#[test]
fn manual_adjust_needs_a_reason_and_a_value_in_range() {
    let mut t = Table::new(&[], &[]);
    let r = t.input(Input::Adjust {
        tracker: TrackerId::player(0, "sb"),
        value: 9,
        reason: " ".into(),
    });
    assert!(matches!(r, Err(Rejection::Impossible(_))));
    let r = t.input(Input::Adjust {
        tracker: TrackerId::player(0, "sb"),
        value: 21,
        reason: "x".into(),
    });
    assert!(matches!(r, Err(Rejection::Impossible(ref e)) if e.reason.contains("0..=20")));
    let r = t.input(Input::Adjust {
        tracker: TrackerId::player(0, "fame"),
        value: 1,
        reason: "x".into(),
    });
    assert!(matches!(r, Err(Rejection::Impossible(_))));
    t.input(Input::Adjust {
        tracker: TrackerId::player(0, "sb"),
        value: 9,
        reason: "spilled chip".into(),
    })
    .unwrap();
    assert_eq!(t.sb(), (9, 10));
}

#[test]
fn adjusting_atk_after_a_free_text_effect_changes_the_comparison() {
    let mut t = Table::new(&["n22"], &["n22"]);
    t.reveal("n22", "n22");
    t.input(Input::Adjust {
        tracker: TrackerId::player(0, "atk"),
        value: 5,
        reason: "field effect, resolved by hand".into(),
    })
    .unwrap();
    t.play(Move::Compare {});
    assert_eq!(t.sb(), (13, 7));
}

#[test]
fn a_die_in_jaken_is_a_free_roll() {
    let mut t = Table::new(&[], &[]);
    let before = t.m.state().clone();
    t.input(Input::Roll {
        roll: cards::core::Roll {
            sides: 6,
            value: 4,
            source: cards::core::DieSource::Typed,
            seat: None,
            throw: None,
        },
    })
    .unwrap();
    assert_eq!(t.m.state(), &before);
    assert_eq!(
        t.m.entries().last().unwrap().effect,
        cards::matches::EntryEffect::FreeRoll
    );
    let r = t.input(Input::Roll {
        roll: cards::core::Roll {
            sides: 6,
            value: 7,
            source: cards::core::DieSource::Typed,
            seat: None,
            throw: None,
        },
    });
    assert!(matches!(r, Err(Rejection::Impossible(_))));
}

#[test]
fn no_legal_card_plays_nothing_as_zero_zero() {
    let mut t = Table::new(&["n50"], &["n22"]);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::NoMonster { player: 1 });
    t.play(Move::Reveal {
        player: 0,
        card: "n50".into(),
    });
    t.play(Move::Compare {});
    // Aki's 5 against DEF 0 takes 5; Ben's ATK 0 moves nothing.
    assert_eq!(t.sb(), (15, 5));
    // Ben's hand was not reduced.
    assert_eq!(t.m.state().players[1].hand, 6);
}

#[test]
fn settlement_parent_first_stops_at_zero() {
    // Aki (parent) ATK 9 vs DEF 0 takes all of Ben's 5; Ben's strike is never settled.
    let rules = Rules {
        settlement: Settlement::ParentFirst,
        ..Rules::default()
    };
    let mut t = Table::with_rules(&["n90"], &["n90"], rules);
    t.input(Input::Adjust {
        tracker: TrackerId::player(1, "sb"),
        value: 5,
        reason: "setup".into(),
    })
    .unwrap();
    t.reveal("n90", "n90");
    t.play(Move::Compare {});
    assert_eq!(t.sb(), (15, 0));
    // With the default (net) both strikes cancel.
    let mut t = Table::new(&["n90"], &["n90"]);
    t.reveal("n90", "n90");
    t.play(Move::Compare {});
    assert_eq!(t.sb(), (10, 10));
}

#[test]
fn no_draw_in_battle_1_when_the_house_rule_says_so() {
    let t = Table::with_rules(
        &[],
        &[],
        Rules {
            draw_in_battle_1: false,
            ..Rules::default()
        },
    );
    assert_eq!(
        (t.m.state().players[0].hand, t.m.state().players[0].deck),
        (5, 10)
    );
}

#[test]
fn negative_values_clamp_at_zero_by_default() {
    let mut t = Table::new(&["n11"], &["n33"]);
    t.reveal("n11", "n33");
    t.input(Input::Adjust {
        tracker: TrackerId::player(0, "def"),
        value: 0,
        reason: "x".into(),
    })
    .unwrap();
    let r = t.input(Input::Adjust {
        tracker: TrackerId::player(0, "def"),
        value: -2,
        reason: "x".into(),
    });
    assert!(r.is_err());
}

#[test]
fn deck_rules_each_have_a_sentence() {
    let cat = catalogue();
    let ok = deck(&[]);
    assert!(check_deck(&ok, &cat).unwrap().is_empty());
    let short: Vec<String> = ok[..14].to_vec();
    assert_eq!(check_deck(&short, &cat).unwrap()[0].rule, "jaken.deck-size");
    let mut three = ok.clone();
    three[0] = "n00".into();
    three[1] = "n00".into();
    three[2] = "n00".into();
    let v = check_deck(&three, &cat).unwrap();
    assert!(
        v.iter()
            .any(|v| v.rule == "jaken.deck-copies" && v.sentence.contains("3 times")),
        "{v:?}"
    );
    let mut two_bg = ok.clone();
    two_bg[0] = "bga".into();
    two_bg[1] = "bgb".into();
    assert_eq!(check_deck(&two_bg, &cat).unwrap()[0].rule, "jaken.deck-bg");
    assert_eq!(check_deck(&["zzz".to_owned()], &cat).unwrap_err(), "zzz");
    // The demo decks are legal.
    let demo = Catalogue::jaken_demo().unwrap();
    for d in &demo.decks {
        assert!(check_deck(&d.cards, &demo).unwrap().is_empty(), "{}", d.id);
    }
}

#[test]
fn an_illegal_deck_cannot_start_a_match() {
    let cat = catalogue();
    let header = MatchHeader {
        game: cards::core::GameId::Jaken,
        catalogue: "test".into(),
        players: vec![
            PlayerConfig {
                name: "A".into(),
                deck_name: "a".into(),
                deck: deck(&[])[..10].to_vec(),
            },
            PlayerConfig {
                name: "B".into(),
                deck_name: "b".into(),
                deck: deck(&[]),
            },
        ],
        rules: serde_json::Value::Null,
    };
    let e = Match::<Jaken>::new(header, &cat).unwrap_err();
    assert!(e.to_string().contains("exactly 15"), "{e}");
}

#[test]
fn unknown_house_rule_is_refused() {
    let cat = catalogue();
    let header = MatchHeader {
        game: cards::core::GameId::Jaken,
        catalogue: "test".into(),
        players: vec![
            PlayerConfig {
                name: "A".into(),
                deck_name: "a".into(),
                deck: deck(&[]),
            },
            PlayerConfig {
                name: "B".into(),
                deck_name: "b".into(),
                deck: deck(&[]),
            },
        ],
        rules: serde_json::json!({"settlment": "net"}),
    };
    let e = Match::<Jaken>::new(header, &cat).unwrap_err();
    assert!(e.to_string().contains("settlment"), "{e}");
}

#[test]
fn the_documented_demo_script_plays_a_whole_match() {
    use cards::script::{Script, run_step};
    let text = include_str!("../../docs/examples/jaken-demo.script");
    let script = Script::parse(text).unwrap();
    let cat = Catalogue::jaken_demo().unwrap();
    let mut m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    for (line, step) in &script.steps {
        run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(matches!(m.outcome(), Some(Outcome::Win { winner: 1, .. })));
    // Every kind of input is in the log: an override, an undo, a free roll, an adjustment.
    let log = m.log();
    assert!(log.iter().any(|l| !l.overridden.is_empty()));
    assert!(log.iter().any(|l| l.undone));
    assert!(log.iter().any(|l| l.text.starts_with("free roll")));
}

#[test]
fn the_child_uses_a_bg_only_after_the_parents_declaration_unless_the_house_rule_says_otherwise() {
    let setup = |rules: Rules| {
        // Given battle 1: Aki (parent) declares a BG and Ben counters with his,
        let mut t = Table::with_rules(&["bga", "n11"], &["bgb"], rules);
        t.play(Move::DeclareBg {
            player: 0,
            card: "bga".into(),
        });
        t.play(Move::DeclareBg {
            player: 1,
            card: "bgb".into(),
        });
        t.play(Move::FaceDown { player: 0 });
        t.play(Move::FaceDown { player: 1 });
        t.play(Move::Reveal {
            player: 0,
            card: "n11".into(),
        });
        t.play(Move::Reveal {
            player: 1,
            card: "n00".into(),
        });
        t.play(Move::Compare {});
        t.play(Move::EndBattle {});
        // and in battle 2 Ben, now the parent, declares none,
        assert_eq!(t.parent(), 1);
        t.play(Move::PassBg { player: 1 });
        t
    };
    let use_bg = Move::UseBg {
        player: 0,
        uses: 1,
        atk: 1,
        def: 0,
    };
    // when Aki (the child) uses the BG left from battle 1, it is refused by the seed's rule,
    let mut t = setup(Rules::default());
    assert_eq!(
        t.refused(use_bg.clone()),
        vec!["jaken.bg-child-after-parent"]
    );
    // and with the house rule off it is used.
    let mut t = setup(Rules {
        child_bg_after_parent_declaration: false,
        ..Rules::default()
    });
    t.play(use_bg);
    assert_eq!(t.m.state().players[0].bg.as_ref().unwrap().uses_left, 1);
}

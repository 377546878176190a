//! Jaken scenarios in given / when / then form: every worked example of `rules/jaken.md` §11,
//! every end condition, the deck rules and the house-rule settings.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::{Outcome, TrackerId};
use cards::game::{MatchHeader, PlayerConfig};
use cards::games::jaken::{Jaken, Move, Placement, Rules, Settlement, Step, check_deck};
use cards::matches::{Input, Match, Rejection};

mod common;

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

    /// Then: `mv` is refused by `rule`, both sentences name the cause, and overridden it applies
    /// and is logged (see `common::refused_then_overridden`).
    fn refused_then_overridden(&mut self, mv: Move, rule: &str, en: &[&str], ja: &[&str]) {
        common::refused_then_overridden(&mut self.m, &catalogue(), mv, "agreed", rule, en, ja);
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
    // A third use breaks the use limit: the BG is used up.
    assert_eq!(
        t.refused(Move::UseBg {
            player: 0,
            uses: 1,
            atk: 1,
            def: 0
        }),
        vec!["jaken.bg-limit"]
    );
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
    t.refused_then_overridden(
        Move::DeclareBg {
            player: 0,
            card: "bga".into(),
        },
        "jaken.bg-one-active",
        &["Aki already has an active BG, bga (bga), with 2 use(s) left"],
        &["Aki にはすでに有効なBG bga（残り2回）があります"],
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
    t.refused_then_overridden(
        use_bg.clone(),
        "jaken.bg-child-after-parent",
        &[
            "Aki is the child",
            "the parent Ben declared none this battle (battle 2)",
        ],
        &[
            "Aki は子です",
            "このバトル（バトル2）で親の Ben はBGを宣言していません",
        ],
    );
    // and with the house rule off it is used.
    let mut t = setup(Rules {
        child_bg_after_parent_declaration: false,
        ..Rules::default()
    });
    t.play(use_bg);
    assert_eq!(t.m.state().players[0].bg.as_ref().unwrap().uses_left, 1);
}

fn effect(player: usize, atk: i32) -> Move {
    Move::Effect {
        player,
        atk,
        def: 0,
        opp_atk: 0,
        opp_def: 0,
        sb: 0,
        note: String::new(),
    }
}

fn use_bg(player: usize, uses: u8, atk: i32) -> Move {
    Move::UseBg {
        player,
        uses,
        atk,
        def: 0,
    }
}

#[test]
fn refusal_bg_timing_names_the_player_and_the_step() {
    // Given battle 1 with Aki (parent) and both monsters face down,
    let mut t = Table::new(&["bga"], &[]);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    // when Aki declares his BG now, it is past the plan phase's declaration,
    t.refused_then_overridden(
        Move::DeclareBg {
            player: 0,
            card: "bga".into(),
        },
        "jaken.bg-timing",
        &["Aki declares a BG at battle 1 P5", "battle plan phase (P3)"],
        &[
            "Aki がBGを宣言したのは バトル1 バトルプランフェイズ(作戦)",
            "親がBGカードを宣言する",
        ],
    );
    // and overridden, the BG is in his zone.
    assert_eq!(t.m.state().players[0].bg.as_ref().unwrap().card, "bga");
}

#[test]
fn refusal_bg_counter_names_the_child_and_the_parent() {
    // Given battle 1, Aki parent, in the plan phase,
    let mut t = Table::new(&[], &["bga"]);
    // when Ben (the child) places a BG before the parent declared one,
    t.refused_then_overridden(
        Move::DeclareBg {
            player: 1,
            card: "bga".into(),
        },
        "jaken.bg-counter",
        &[
            "Ben is the child",
            "the parent Aki has placed no BG this battle",
        ],
        &["Ben は子です", "親の Aki はBGを置いていません"],
    );
    assert_eq!(t.m.state().players[1].bg.as_ref().unwrap().card, "bga");
}

#[test]
fn refusal_bg_turn_names_whose_turn_it_is() {
    // Given battle 1, Aki (parent) to declare a BG or pass,
    let mut t = Table::new(&[], &[]);
    // when Ben passes for him,
    t.refused_then_overridden(
        Move::PassBg { player: 1 },
        "jaken.bg-turn",
        &["parent Aki's turn", "not Ben's"],
        &["親の Aki の番", "Ben の番ではありません"],
    );
    // and overridden, the declaration closes.
    assert_eq!(t.m.state().step, Step::FaceDown);
}

#[test]
fn refusal_bg_kind_names_the_monster_card() {
    // Given Aki (parent) with a monster card in hand,
    let mut t = Table::new(&["n55"], &[]);
    // when he declares it as a BG,
    t.refused_then_overridden(
        Move::DeclareBg {
            player: 0,
            card: "n55".into(),
        },
        "jaken.bg-kind",
        &["Aki declares n55", "a monster card"],
        &["Aki がBGとして宣言した n55 はモンスターカード"],
    );
    // and overridden, it lies in the BG zone with no use, face down.
    let bg = t.m.state().players[0].bg.clone().unwrap();
    assert_eq!((bg.uses_left, bg.face_up), (0, false));
}

#[test]
fn refusal_bg_limit_names_the_player_the_card_and_the_uses() {
    // Given Aki's BG bga (limit 2) in play in battle 1,
    let mut t = Table::new(&["bga"], &[]);
    t.play(Move::DeclareBg {
        player: 0,
        card: "bga".into(),
    });
    t.play(Move::PassBg { player: 1 });
    // when he declares 3 uses at once,
    t.refused_then_overridden(
        use_bg(0, 3, 1),
        "jaken.bg-limit",
        &["Aki's BG bga (bga) has 2 use(s) left", "3 were declared"],
        &["Aki のBG bga の残り使用回数は2回", "3回の使用"],
    );
    // and overridden, the 2 left are spent and the card is turned face down.
    let bg = t.m.state().players[0].bg.clone().unwrap();
    assert_eq!((bg.uses_left, bg.face_up), (0, false));
    // A further use names the BG as used up.
    t.refused_then_overridden(
        use_bg(0, 1, 1),
        "jaken.bg-limit",
        &["Aki's BG bga (bga) is used up", "0 uses left"],
        &["Aki のBG bga は使い切られています", "残り0回"],
    );
}

#[test]
fn refusal_bg_once_per_battle_names_the_player_the_card_and_the_battle() {
    // Given the house rule of one BG use per battle, and Aki's BG used once in battle 1,
    let rules = Rules {
        bg_multiple_uses_per_battle: false,
        ..Rules::default()
    };
    let mut t = Table::with_rules(&["bga"], &[], rules);
    t.play(Move::DeclareBg {
        player: 0,
        card: "bga".into(),
    });
    t.play(Move::PassBg { player: 1 });
    t.play(use_bg(0, 1, 1));
    // when he uses it again,
    t.refused_then_overridden(
        use_bg(0, 1, 1),
        "jaken.bg-once-per-battle",
        &["House rule", "Aki already used bga (bga) in battle 1"],
        &["ハウスルール", "Aki はバトル1ですでに bga を使いました"],
    );
    // and overridden, both +1 count.
    assert_eq!(t.m.state().players[0].bg_atk, 2);
}

#[test]
fn refusal_bg_tribe_names_the_player_the_card_and_the_tribes() {
    // Given Aki (parent) with BG bgb (tribe B) and a tribe-A monster revealed,
    let mut t = Table::new(&["bgb"], &[]);
    t.play(Move::DeclareBg {
        player: 0,
        card: "bgb".into(),
    });
    t.play(Move::PassBg { player: 1 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 0,
        card: "n11".into(),
    });
    t.refused_then_overridden(
        use_bg(0, 1, 1),
        "jaken.bg-tribe",
        &[
            "Aki's BG bgb (bgb) works only for B monsters",
            "n11 (n11) is A",
        ],
        &["Aki のBG bgb はBのモンスターにだけ有効", "n11 はA"],
    );
}

#[test]
fn refusal_one_card_per_battle_names_the_player_and_the_battle() {
    // Given Aki's monster face down in battle 1,
    let mut t = Table::new(&[], &[]);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    let hand = t.m.state().players[0].hand;
    // when he declares no monster as well,
    t.refused_then_overridden(
        Move::NoMonster { player: 0 },
        "jaken.one-card",
        &[
            "Aki already put out a monster face down in battle 1",
            "one card per battle",
        ],
        &[
            "Aki はバトル1ですでにモンスターを裏向きに配置",
            "1バトルごとに",
        ],
    );
    // and overridden, the new choice replaces it: the card is back in hand.
    assert_eq!(t.m.state().players[0].hand, hand + 1);
    assert_eq!(t.m.state().players[0].placement, Placement::NoMonster);
}

#[test]
fn refusal_reveal_kind_names_the_bg_card() {
    // Given both face down in battle 1, Aki holding BG bga,
    let mut t = Table::new(&["bga"], &[]);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    // when Aki turns over bga on the battle field,
    t.refused_then_overridden(
        Move::Reveal {
            player: 0,
            card: "bga".into(),
        },
        "jaken.reveal-kind",
        &["Aki reveals bga (bga), a BG card"],
        &["Aki がバトルフィールドで表向きにした bga はBGカード"],
    );
    // and overridden, it fights as ATK 0 / DEF 0.
    assert_eq!(t.m.state().effective(0).0, (0, 0));
}

#[test]
fn refusal_effect_once_order_and_compare_name_the_players_and_cards() {
    // Given both 両家 effects open in battle 1 (Aki parent),
    let mut t = Table::new(&["er"], &["er2"]);
    t.reveal("er", "er2");
    // Ben first is against the order, naming Aki's card,
    t.refused_then_overridden(
        effect(1, 1),
        "jaken.effect-order",
        &["parent", "Aki's er (er) comes before Ben's effect"],
        &[
            "効果は必ず親(OB所有)から発動",
            "Aki の er の効果が Ben の効果より先",
        ],
    );
    // and Ben's effect a second time was already resolved in battle 1;
    t.refused_then_overridden(
        effect(1, 1),
        "jaken.effect-once",
        &["Ben's er2 (er2)", "already resolved in battle 1"],
        &["Ben の er2 の効果は、バトル1ですでに発動しました"],
    );
    // comparing while Aki's effect is open names him.
    t.refused_then_overridden(
        Move::Compare {},
        "jaken.effect-before-compare",
        &["Aki still has an effect open"],
        &["Aki の効果がまだ発動していません"],
    );
    assert_eq!(t.m.state().step, Step::BattleEnd);
}

#[test]
fn refusal_summon_cost_wind_and_no_effect_name_the_player_and_card() {
    // Given battle 1, Aki parent: Aki's c4 costs 4,
    let mut t = Table::new(&["c4"], &["et", "et"]);
    t.play(Move::PassBg { player: 0 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.refused_then_overridden(
        Move::Reveal {
            player: 0,
            card: "c4".into(),
        },
        "jaken.summon-cost",
        &["c4 (c4) costs 4, this is battle 1", "(Aki's monster)"],
        &["Aki の c4 のコストは4", "バトル1"],
    );
    t.play(Move::Reveal {
        player: 1,
        card: "et".into(),
    });
    // Aki's NM has no effect,
    t.refused_then_overridden(
        effect(0, 1),
        "jaken.no-effect",
        &["Aki's c4 (c4) is a normal monster (NM)"],
        &["Aki の c4 はノーマルモンスター(NM)"],
    );
    // and Ben's 他家 works: no refusal; after battle 1, in battle 2 Ben is the parent.
    t.play(effect(1, 0));
    t.play(Move::Compare {});
    t.play(Move::EndBattle {});
    t.play(Move::PassBg { player: 1 });
    t.play(Move::FaceDown { player: 0 });
    t.play(Move::FaceDown { player: 1 });
    t.play(Move::Reveal {
        player: 1,
        card: "et".into(),
    });
    // A 他家 effect while its owner Ben is the parent breaks the wind rule.
    t.refused_then_overridden(
        effect(1, 1),
        "jaken.wind",
        &[
            "Ben's et (et) has a 他家 (tacha) effect",
            "Ben is the parent in battle 2",
        ],
        &["Ben の et の効果は他家(タチャ)", "バトル2の Ben は親"],
    );
}

#[test]
fn refusal_phase_order_quotes_the_seeds_step_in_both_languages() {
    // Given battle 1 in the plan phase (Aki to declare),
    let mut t = Table::new(&[], &[]);
    // placing a monster now is before the BG declarations,
    t.refused_then_overridden(
        Move::FaceDown { player: 1 },
        "jaken.phase-order",
        &["Placing a monster", "P5", "battle 1 P3"],
        &[
            "モンスターの配置は",
            "バトル1 バトルプランフェイズ(作戦)：親のBG宣言",
        ],
    );
    let v = match t.try_play(Move::FaceDown { player: 0 }) {
        Err(Rejection::Refused { violations }) => violations,
        other => panic!("{other:?}"),
    };
    assert!(v[0].reference.contains("裏向きに配置"), "{v:?}");
}

#[test]
fn refusal_ending_the_battle_before_the_comparison_names_both_steps() {
    // Given both monsters revealed in battle 1 and no comparison yet,
    let mut t = Table::new(&["n32"], &["n23"]);
    t.reveal("n32", "n23");
    assert_eq!(t.m.state().step, Step::Compare);
    // when the OB is handed over now, the battle end comes after the SB comparison,
    t.refused_then_overridden(
        Move::EndBattle {},
        "jaken.phase-order",
        &[
            "Ending the battle",
            "after the SB comparison",
            "battle 1 B4",
        ],
        &[
            "バトルエンド(終決)は攻撃力・守備力を比べてSBを移動した後に行います",
            "バトル1 バトルフェイズ(決戦)",
        ],
    );
    // and overridden, no SB moved, both monsters are in the trash and battle 2 begins.
    assert_eq!(t.sb(), (10, 10));
    assert_eq!(t.m.state().turn, 2);
    assert_eq!(t.m.state().players[0].trash, vec!["n32".to_owned()]);
}

/// Then: the deck rule's sentences name the cause (English `en`, Japanese `ja`), the Japanese one
/// is written in Japanese, and the reference is the rulebook's own sentence.
fn deck_refusal(v: &[cards::core::Violation], rule: &str, en: &[&str], ja: &[&str]) {
    let v = common::names_the_cause(v, rule, en, ja);
    let cat = catalogue();
    let header = MatchHeader {
        game: cards::core::GameId::Jaken,
        catalogue: "test".into(),
        players: Vec::new(),
        rules: serde_json::Value::Null,
    };
    common::assert_japanese(&v.sentence_ja, &common::quoted_names(&header, &cat));
    assert!(v.reference.contains("「● "), "{v:?}");
}

#[test]
fn deck_rules_name_the_count_and_the_cards_in_both_languages() {
    let cat = catalogue();
    let ok = deck(&[]);
    let v = check_deck(&ok[..14], &cat).unwrap();
    deck_refusal(
        &v,
        "jaken.deck-size",
        &["exactly 15", "this one has 14"],
        &["1デッキ15枚編成", "このデッキは14枚"],
    );
    let mut three = ok.clone();
    three[..3].fill("n00".to_owned());
    let v = check_deck(&three, &cat).unwrap();
    deck_refusal(
        &v,
        "jaken.deck-copies",
        &["At most 2", "n00 appears 3 times"],
        &["2枚まで", "n00 が3枚"],
    );
    let mut two_bg = ok.clone();
    two_bg[0] = "bga".into();
    two_bg[1] = "bgb".into();
    let v = check_deck(&two_bg, &cat).unwrap();
    deck_refusal(
        &v,
        "jaken.deck-bg",
        &["one name only", "bga, bgb"],
        &["1種類しか", "bga、bgb"],
    );
}

//! JUNK-KEN's draft (パック購入ルール), step by step from the seed's text:
//!
//! ①パック購入フェーズ「すべてのカードをよく切り、5枚ずつの山にして裏向きに並べます。EXカードを裏向きの
//! 状態で山に1枚ずつ加えます。余りは使用しません。各プレイヤーは交互に山を選んで自分の持ち札にします。これを
//! 持ち札の枚数が40枚を超えるまで繰り返します。プレイヤーの持ち札にならなかったカードは④まで使用しません。」
//! ②デッキ構築フェーズ「プレイヤーは自分の持ち札からデッキを作ります。」 ③対戦フェーズ ④パック購入フェーズ2
//! 「対戦フェーズで勝利したプレイヤーは、相手プレイヤーの持ち札から好きなカードを2枚受け取り、代わりに
//! カードを2枚渡します。①で選ばなかった残りの山を交互に選んで持ち札にします。」

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use cards::catalogue::Catalogue;
use cards::core::{GameId, Outcome, TrackerId};
use cards::game::{MatchHeader, PlayerConfig, SetupError};
use cards::games::junk_ken::{DraftCarry, JunkKen, Move, Step};
use cards::matches::{Input, Match, Rejection};
use common::refused_then_overridden;

fn catalogue() -> Catalogue {
    Catalogue::builtin(GameId::JunkKen).unwrap()
}

/// The demo set's main-deck cards (JK01–JK17) and EX cards (JK18–JK24).
fn main_ids() -> Vec<String> {
    (1..=17).map(|i| format!("JK{i:02}")).collect()
}
fn ex_ids() -> Vec<String> {
    (18..=24).map(|i| format!("JK{i:02}")).collect()
}

fn header(rules: serde_json::Value) -> MatchHeader {
    MatchHeader {
        game: GameId::JunkKen,
        catalogue: "junk-ken-demo".into(),
        players: ["Aki", "Ben"]
            .iter()
            .map(|n| PlayerConfig {
                name: (*n).into(),
                deck_name: "draft".into(),
                deck: Vec::new(),
            })
            .collect(),
        rules,
    }
}

/// Six copies of every main-deck card (102: 20 piles and 2 cards over) and one of each EX card
/// (7: the first 7 piles get one).
fn pool() -> serde_json::Value {
    let mut p: Vec<String> = main_ids().iter().map(|id| format!("{id}*6")).collect();
    p.extend(ex_ids());
    serde_json::json!(p)
}

fn new_draft(seed: u64) -> Match<JunkKen> {
    let rules = serde_json::json!({"draft": true, "draft_pool": pool(), "draft_seed": seed});
    Match::<JunkKen>::new(header(rules), &catalogue()).unwrap()
}

fn play(m: &mut Match<JunkKen>, mv: Move) {
    let p = m
        .prepare(&Input::Move {
            mv: mv.clone(),
            override_reason: None,
        })
        .unwrap_or_else(|e| panic!("{mv:?}: {e:?}"));
    m.commit(p);
}

fn undo(m: &mut Match<JunkKen>) {
    let p = m.prepare(&Input::Undo { reason: None }).unwrap();
    m.commit(p);
}

fn refused_by(m: &Match<JunkKen>, mv: Move) -> Vec<String> {
    match m.prepare(&Input::Move {
        mv,
        override_reason: None,
    }) {
        Err(Rejection::Refused { violations }) => violations.into_iter().map(|v| v.rule).collect(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn tracker(m: &Match<JunkKen>, seat: Option<usize>, name: &'static str) -> i32 {
    let id = match seat {
        Some(s) => TrackerId::player(s, name),
        None => TrackerId::game(name),
    };
    m.trackers()
        .into_iter()
        .find(|t| t.id == id)
        .unwrap_or_else(|| panic!("no tracker {id}"))
        .value
}

fn draft(m: &Match<JunkKen>) -> &cards::games::junk_ken::Draft {
    m.state().table.draft.as_deref().unwrap()
}

fn is_ex(id: &str) -> bool {
    ex_ids().iter().any(|e| e == id)
}

/// A legal draft deck from a player's holdings: 30 main-deck cards and up to 3 EX cards, a
/// Limited card at most once.
fn legal_deck(m: &Match<JunkKen>, seat: usize) -> Vec<String> {
    let state = m.state();
    let limited = |id: &str| state.cards.get(id).is_some_and(|c| c.data.is_limited());
    let mut main = Vec::new();
    let mut extra = Vec::new();
    for id in &draft(m).holdings[seat] {
        if limited(id) && main.iter().chain(&extra).any(|c: &String| c == id) {
            continue;
        }
        if is_ex(id) {
            if extra.len() < 3 {
                extra.push(id.clone());
            }
        } else if main.len() < 30 {
            main.push(id.clone());
        }
    }
    assert_eq!(main.len(), 30, "the holdings give 30 main-deck cards");
    main.extend(extra);
    main
}

/// Picks in turn, each player the first pile left, until the pack purchase ends.
fn pick_until_built(m: &mut Match<JunkKen>, first: usize) {
    let mut player = first;
    while m.state().table.step == Step::Purchase {
        if let Some(p) = draft(m).picker {
            player = p;
        }
        let pile = draft(m)
            .piles
            .iter()
            .position(|p| p.taken.is_none())
            .unwrap()
            + 1;
        play(
            m,
            Move::Pick {
                player,
                pile: u32::try_from(pile).unwrap(),
            },
        );
        player = 1 - player;
    }
}

#[test]
fn the_app_deals_piles_of_five_with_one_ex_card_each_while_they_last_and_leaves_the_rest_out() {
    // Given 102 main-deck cards and 7 EX cards in the pool.
    let m = new_draft(7);
    let d = draft(&m);
    // Then 20 piles of 5 (2 cards over, not used), the first 7 with one EX card each.
    assert_eq!(d.piles.len(), 20);
    for (i, p) in d.piles.iter().enumerate() {
        let ex = p.cards.iter().filter(|c| is_ex(c)).count();
        assert_eq!(
            (p.cards.len(), ex),
            if i < 7 { (6, 1) } else { (5, 0) },
            "pile {}",
            i + 1
        );
    }
    assert_eq!(m.state().table.step, Step::Purchase);
    assert_eq!(tracker(&m, None, "piles-left"), 20);
    assert_eq!(tracker(&m, Some(0), "holdings"), 0);
    // The deal is the seed's: the same seed deals the same piles, another seed others.
    assert_eq!(draft(&new_draft(7)).piles, d.piles);
    assert_ne!(draft(&new_draft(8)).piles, d.piles);
    // Every card dealt is from the pool, no more copies than it holds.
    let dealt: Vec<&String> = d.piles.iter().flat_map(|p| &p.cards).collect();
    for id in main_ids() {
        assert!(dealt.iter().filter(|c| ***c == id).count() <= 6);
    }
}

#[test]
fn players_pick_whole_piles_in_turn_and_a_pick_out_of_turn_is_a_rule_the_table_may_override() {
    let cat = catalogue();
    let mut m = new_draft(1);
    // Given the janken winner, Ben, picks first.
    play(&mut m, Move::Pick { player: 1, pile: 2 });
    assert_eq!(
        draft(&m).holdings[1].len(),
        6,
        "the whole pile, EX card included"
    );
    assert_eq!(draft(&m).picker, Some(0));
    assert_eq!(m.context().active, Some(0));
    // When Ben picks again, then it is Aki's pick.
    refused_then_overridden(
        &mut m,
        &cat,
        Move::Pick { player: 1, pile: 3 },
        "Aki let Ben take two",
        "junk-ken.draft-pick-order",
        &["Aki's pick"],
        &["Aki", "交互"],
    );
    assert_eq!(draft(&m).holdings[1].len(), 12);
    // A pile already taken cannot be taken again: it is in Ben's holdings.
    match m.prepare(&Input::Move {
        mv: Move::Pick { player: 0, pile: 2 },
        override_reason: Some("again".into()),
    }) {
        Err(Rejection::Impossible(e)) => assert!(e.to_string().contains("Ben"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn picking_stops_for_a_player_above_forty_and_the_other_picks_on_alone() {
    let cat = catalogue();
    let mut m = new_draft(3);
    // Given Aki always takes a pile of 6 and Ben a pile of 5.
    let six: Vec<u32> = (1..=7).collect();
    let five: Vec<u32> = (8..=20).collect();
    for i in 0..7 {
        play(
            &mut m,
            Move::Pick {
                player: 0,
                pile: six[i],
            },
        );
        if i < 6 {
            play(
                &mut m,
                Move::Pick {
                    player: 1,
                    pile: five[i],
                },
            );
        }
    }
    // Then after 7 piles Aki holds 42, over 40: Aki stops; Ben (30) picks on alone.
    assert_eq!(tracker(&m, Some(0), "holdings"), 42);
    assert_eq!(tracker(&m, Some(1), "holdings"), 30);
    assert_eq!(draft(&m).picker, Some(1));
    refused_then_overridden(
        &mut m,
        &cat,
        Move::Pick {
            player: 0,
            pile: 20,
        },
        "testing",
        "junk-ken.draft-holdings",
        &["Aki holds 42", "over 40"],
        &["42枚", "40枚を超え"],
    );
    undo(&mut m);
    play(
        &mut m,
        Move::Pick {
            player: 1,
            pile: 14,
        },
    );
    play(
        &mut m,
        Move::Pick {
            player: 1,
            pile: 15,
        },
    );
    assert_eq!(tracker(&m, Some(1), "holdings"), 40, "40 is not over 40");
    assert_eq!(m.state().table.step, Step::Purchase);
    play(
        &mut m,
        Move::Pick {
            player: 1,
            pile: 16,
        },
    );
    // When Ben passes 40 too, the pack purchase ends; 4 piles wait for pack purchase 2.
    assert_eq!(tracker(&m, Some(1), "holdings"), 45);
    assert_eq!(m.state().table.step, Step::Build);
    assert_eq!(tracker(&m, None, "piles-left"), 4);
}

#[test]
fn decks_are_built_from_the_own_holdings_then_the_battle_begins_with_the_drafts_rules() {
    let cat = catalogue();
    let mut m = new_draft(5);
    pick_until_built(&mut m, 0);
    // Given a card Aki does not hold (one of Ben's that Aki has none of, if any; else over Aki's
    // copies).
    let aki = draft(&m).holdings[0].clone();
    let foreign = draft(&m).holdings[1]
        .iter()
        .find(|c| !aki.contains(c))
        .cloned();
    if let Some(card) = foreign {
        refused_then_overridden(
            &mut m,
            &cat,
            Move::DeckAdd { player: 0, card },
            "borrowed",
            "junk-ken.draft-own-holdings",
            &["Aki", "own holdings", "0 ×"],
            &["自分の持ち札"],
        );
        undo(&mut m);
    }
    // A deck of 29 is not a draft deck.
    let mut deck = legal_deck(&m, 0);
    let short: Vec<String> = deck.iter().skip(1).cloned().collect();
    let rules = refused_by(
        &m,
        Move::BuildDeck {
            player: 0,
            cards: cards::core::CardList(short),
        },
    );
    assert!(
        rules.contains(&"junk-ken.deck-size".to_owned()),
        "{rules:?}"
    );
    // When Aki builds 30 + 3 EX with taps and Ben builds with the whole list …
    for card in deck.drain(..) {
        play(&mut m, Move::DeckAdd { player: 0, card });
    }
    assert_eq!(tracker(&m, Some(0), "deck-main"), 30);
    assert_eq!(tracker(&m, Some(0), "deck-ex"), 3);
    play(&mut m, Move::DeckDone { player: 0 });
    assert_eq!(m.state().table.step, Step::Build, "Ben is still building");
    let ben = legal_deck(&m, 1);
    play(
        &mut m,
        Move::BuildDeck {
            player: 1,
            cards: cards::core::CardList(ben),
        },
    );
    // … then the battle begins: 4 in hand, 2 side cards, 24 in the deck, 3 EX cards.
    let s = m.state();
    assert_eq!(s.table.step, Step::Set);
    for seat in 0..2 {
        let p = &s.players[seat];
        assert_eq!((p.hand, p.side, p.deck, p.extra.len()), (4, 2, 24, 3));
        assert_eq!(p.unplayed.len(), 30);
    }
    assert_eq!(m.state().rules.loss_threshold(), 3);
    // The draft's numbers are gone from the table; the battle's are there.
    let names: Vec<String> = m.trackers().iter().map(|t| t.id.name.to_string()).collect();
    for gone in ["piles-left", "holdings", "deck-main", "deck-ex"] {
        assert!(
            !names.iter().any(|n| n == gone),
            "{gone} in the battle: {names:?}"
        );
    }
    assert_eq!(tracker(&m, Some(0), "hand"), 4);
    // And the log replays to the same state.
    let again = Match::<JunkKen>::replay(
        m.header().clone(),
        &cat,
        m.entries().iter().map(|e| e.input.clone()),
    )
    .unwrap();
    assert_eq!(again.state(), m.state());
}

/// Pack purchase 1, deck building, and a battle Aki wins (Ben surrenders with the table's leave).
fn first_battle() -> Match<JunkKen> {
    let mut m = new_draft(11);
    pick_until_built(&mut m, 0);
    for seat in 0..2 {
        let deck = legal_deck(&m, seat);
        play(
            &mut m,
            Move::BuildDeck {
                player: seat,
                cards: cards::core::CardList(deck),
            },
        );
    }
    let p = m
        .prepare(&Input::Move {
            mv: Move::Surrender { player: 1 },
            override_reason: Some("Ben gives up".into()),
        })
        .unwrap();
    m.commit(p);
    assert!(matches!(m.outcome(), Some(Outcome::Win { winner: 0, .. })));
    m
}

#[test]
fn the_next_battle_begins_with_the_winners_exchange_then_the_loser_picks_the_leftover_piles_first()
{
    let cat = catalogue();
    let m = first_battle();
    // Given battle 1 is over: the draft is carried to battle 2.
    let carry: DraftCarry = m.state().next_battle().unwrap();
    assert_eq!(carry.battle, 2);
    assert_eq!(carry.winner, Some(0));
    let left = draft(&m).piles.iter().filter(|p| p.taken.is_none()).count();
    assert_eq!(carry.piles.len(), left);
    assert!(left > 0);
    let rules = serde_json::json!({"draft": true, "draft_carry": carry});
    let mut m2 = Match::<JunkKen>::new(header(rules), &cat).unwrap();
    assert_eq!(m2.state().table.step, Step::Exchange);
    assert_eq!(m2.context().active, Some(0), "the winner exchanges");
    let (aki, ben) = (draft(&m2).holdings[0].len(), draft(&m2).holdings[1].len());
    // When the winner takes 2 of Ben's cards …
    let bens: Vec<String> = draft(&m2).holdings[1].iter().take(3).cloned().collect();
    play(
        &mut m2,
        Move::ExchangeTake {
            card: bens[0].clone(),
        },
    );
    // … ending the exchange before it is whole is refused …
    let rules = refused_by(&m2, Move::ExchangeDone {});
    assert!(rules.contains(&"junk-ken.draft-exchange".to_owned()));
    play(
        &mut m2,
        Move::ExchangeTake {
            card: bens[1].clone(),
        },
    );
    // … a 3rd card is more than the rule gives …
    refused_then_overridden(
        &mut m2,
        &cat,
        Move::ExchangeTake {
            card: bens[2].clone(),
        },
        "testing",
        "junk-ken.draft-exchange",
        &["Aki takes 3"],
        &["2枚受け取り", "3枚"],
    );
    undo(&mut m2);
    // … and gives 2 back.
    let akis: Vec<String> = draft(&m2).holdings[0]
        .iter()
        .rev()
        .take(2)
        .cloned()
        .collect();
    for card in akis {
        play(&mut m2, Move::ExchangeGive { card });
    }
    play(&mut m2, Move::ExchangeDone {});
    assert_eq!(draft(&m2).holdings[0].len(), aki);
    assert_eq!(draft(&m2).holdings[1].len(), ben);
    assert!(bens[..2].iter().all(|c| draft(&m2).holdings[0].contains(c)));
    // Then pack purchase 2: Ben, the loser, picks first, Aki's pick first is refused.
    assert_eq!(m2.state().table.step, Step::Purchase);
    assert_eq!(draft(&m2).picker, Some(1));
    let rules = refused_by(&m2, Move::Pick { player: 0, pile: 1 });
    assert_eq!(rules, ["junk-ken.draft-pick-order"]);
    // Over 40 is no limit now: they pick in turn until the piles run out.
    pick_until_built(&mut m2, 1);
    assert_eq!(tracker(&m2, None, "piles-left"), 0);
    assert_eq!(m2.state().table.step, Step::Build);
    let total: usize = (0..2).map(|s| draft(&m2).holdings[s].len()).sum();
    assert_eq!(
        total,
        aki + ben + carry.piles.iter().map(|p| p.0.len()).sum::<usize>()
    );
}

#[test]
fn a_misspelt_draft_field_and_a_bad_pool_are_refused_by_name() {
    // A move with a misspelt field.
    let e =
        serde_json::from_value::<Move>(serde_json::json!({"type": "pick", "player": 0, "pil": 2}))
            .unwrap_err()
            .to_string();
    assert!(e.contains("pil"), "{e}");
    // A pool card the set does not have, a pool without draft=true, and decks brought along.
    let cat = catalogue();
    let bad = |rules: serde_json::Value, decks: bool| {
        let mut h = header(rules);
        if decks {
            h.players[0].deck = vec!["JK01".into()];
        }
        match Match::<JunkKen>::new(h, &cat) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted"),
        }
    };
    let e = bad(
        serde_json::json!({"draft": true, "draft_pool": "JK01*6,ZZ99"}),
        false,
    );
    assert!(e.contains("ZZ99"), "{e}");
    let e = bad(serde_json::json!({"draft_pool": "all*6"}), false);
    assert!(e.contains("draft=true"), "{e}");
    let e = bad(
        serde_json::json!({"draft": true, "draft_pool": "all*6"}),
        true,
    );
    assert!(e.contains("Aki") && e.contains("holdings"), "{e}");
    let e = bad(
        serde_json::json!({"draft": true, "draft_pool": "all*1000"}),
        false,
    );
    assert!(e.contains("1 to 100"), "{e}");
    let e = bad(
        serde_json::json!({"draft": true, "draft_pool": "JK01*4"}),
        false,
    );
    assert!(e.contains("fewer than 5"), "{e}");
    // A header is read strictly: a misspelt key of the carried draft is named.
    let e = serde_json::from_value::<DraftCarry>(serde_json::json!({"battle": 2, "pilez": []}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("pilez"), "{e}");
    let _ = SetupError::Rules(String::new());
}

#[test]
fn the_draft_is_walked_in_japanese_steps_and_the_phase_bar_starts_with_the_pack_purchase() {
    let m = new_draft(2);
    let ctx = m.context();
    assert_eq!(ctx.phase.current, 0);
    assert!(
        ctx.phase.phases[0].contains("パック購入"),
        "{:?}",
        ctx.phase.phases
    );
    assert!(ctx.phase.phases[1].contains("デッキ構築"));
    assert_eq!(
        cards::games::junk_ken::step_text_ja(m.state()),
        "ドラフト：パック購入フェーズ"
    );
    // Every pile is offered to either player before the first pick; the piles' cards stay
    // face down (a pick's sentence names the pile and its size only).
    let picks: Vec<String> = m
        .legal_moves()
        .into_iter()
        .map(|(_, label)| label)
        .filter(|l| l.contains("picks pile"))
        .collect();
    assert_eq!(picks.len(), 40, "{picks:?}");
    assert!(picks.contains(&"Aki picks pile 1 (6 cards)".to_owned()));
    assert!(picks.contains(&"Ben picks pile 20 (5 cards)".to_owned()));
}

#[test]
fn the_documented_draft_script_plays_pack_purchase_deck_building_and_a_whole_battle() {
    use cards::script::{Script, run_step};
    let text = include_str!("../../docs/examples/junk_ken-draft.script");
    let script = Script::parse(text).unwrap();
    let cat = catalogue();
    let mut m = cards::matches::new_match(script.header(&cat).unwrap(), &cat).unwrap();
    for (line, step) in &script.steps {
        run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(
        matches!(m.outcome(), Some(Outcome::Win { winner: 0, .. })),
        "{:?}",
        m.outcome()
    );
    // The log names the picks and the decks in the players' words.
    let log: Vec<String> = m.log().into_iter().map(|l| l.text).collect();
    assert!(
        log.iter().any(|l| l == "Aki picks pile 1 (6 cards)"),
        "{log:?}"
    );
    assert!(
        log.iter().any(|l| l == "Ben builds a deck of 33 cards"),
        "{log:?}"
    );
}

#[test]
fn a_draft_move_outside_its_step_names_both_steps() {
    let cat = catalogue();
    let mut m = new_draft(4);
    // Given the pack purchase, when Aki puts a card in the deck before the deck building …
    refused_then_overridden(
        &mut m,
        &cat,
        Move::DeckAdd {
            player: 0,
            card: "JK01".into(),
        },
        "testing",
        "junk-ken.draft-order",
        &["belongs to the deck building", "at the pack purchase"],
        &["デッキ構築フェーズ", "パック購入フェーズ"],
    );
    undo(&mut m);
    // … and once the decks are being built, a pick is out of its step.
    pick_until_built(&mut m, 0);
    let left = draft(&m)
        .piles
        .iter()
        .position(|p| p.taken.is_none())
        .unwrap()
        + 1;
    let v = refused_by(
        &m,
        Move::Pick {
            player: 0,
            pile: u32::try_from(left).unwrap(),
        },
    );
    assert!(v.contains(&"junk-ken.draft-order".to_owned()), "{v:?}");
}

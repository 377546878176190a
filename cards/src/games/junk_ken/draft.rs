//! JUNK-KEN's draft (パック購入ルール, §8): the pack purchase, the deck building and, between
//! battles, the winner's exchange, inside the match before its battle.
//!
//! The app deals: it shuffles the pool (`draft_pool`, with the stored `draft_seed`), lays it out
//! in piles of 5 and adds one EX card (an extra-deck card: awakening or field) to each pile while
//! they last; an incomplete last pile and surplus EX cards are not used. The piles stay face
//! down (the window shows only their sizes) until a player picks one; then its cards join that
//! player's holdings (持ち札). Pack purchase 1 alternates until each player's holdings exceed
//! 40 (a player above 40 stops; the other goes on alone). Deck building takes a 30-card main
//! deck and up to 3 EX cards from the player's own holdings. The battle then begins with those
//! decks under the draft's rules (2 side cards, no cost cap, the 3rd defeat loses).
//!
//! The next battle of the same draft is a new match ([`State::next_battle`] writes its
//! `draft_carry`): the winner takes 2 cards from the loser's holdings and gives 2 back, then the
//! players pick the piles left over from pack purchase 1 in turn, the loser first, until none is
//! left; then deck building and the battle again.

use super::deck::{DeckRules, Look, check_lists};
use super::scratch::Scratch;
use super::state::*;
use crate::catalogue::Catalogue;
use crate::core::{Impossible, Seat, Violation};
use crate::game::{MatchHeader, PlayerConfig, SetupError};
use std::collections::BTreeMap;

/// The most copies a draft pool may hold (the 24-card demo set ×100 is 2,400).
pub const MAX_POOL: usize = 10_000;
/// The most copies one pool entry (`ID*N`, `all*N`) may ask for.
pub const MAX_COPIES: usize = 100;

const REF_ORDER: &str =
    "ゲームの進行「①パック購入フェーズ、②デッキ構築フェーズ、③対戦フェーズに分かれて進行します。」";
const REF_PICK: &str = "①パック購入フェーズ「各プレイヤーは交互に山を選んで自分の持ち札にします。これを持ち札の枚数が40枚を超えるまで繰り返します。」";
const REF_PICK2: &str =
    "④パック購入フェーズ2「①で選ばなかった残りの山を交互に選んで持ち札にします。」";
const REF_EXCHANGE: &str = "④パック購入フェーズ2「対戦フェーズで勝利したプレイヤーは、相手プレイヤーの持ち札から好きなカードを2枚受け取り、代わりにカードを2枚渡します。」";
const REF_BUILD: &str = "②デッキ構築フェーズ「プレイヤーは自分の持ち札からデッキを作ります。」";

/// The draft of a new match, from its house rules: `None` when the match has no pack purchase
/// (`draft_pool` empty and no `draft_carry`). The cards of the pool or the carried holdings join
/// `cards`.
pub(super) fn setup(
    players: &[PlayerConfig],
    rules: &Rules,
    catalogue: &Catalogue,
    cards: &mut BTreeMap<String, CardInfo>,
) -> Result<Option<Box<Draft>>, SetupError> {
    let pool = &rules.draft_pool.0;
    if pool.is_empty() && rules.draft_carry.is_none() {
        return Ok(None);
    }
    let rule_error = |s: String| Err(SetupError::Rules(s));
    if !rules.draft {
        return rule_error(
            "draft_pool and draft_carry belong to the draft (pack purchase) variant: add the house rule draft=true"
                .into(),
        );
    }
    if !pool.is_empty() && rules.draft_carry.is_some() {
        return rule_error(
            "a match deals a new pool (draft_pool) or goes on with a draft (draft_carry), not both"
                .into(),
        );
    }
    if let Some(p) = players.iter().find(|p| !p.deck.is_empty()) {
        return rule_error(format!(
            "in a draft the players build their decks from their holdings, but {} brings a deck of {} cards",
            p.name,
            p.deck.len()
        ));
    }
    let mut known = |id: &str| -> Result<(), SetupError> {
        if !cards.contains_key(id) {
            let info = card_info(catalogue, id).ok_or_else(|| {
                SetupError::Rules(format!(
                    "the draft names card `{}`, which is not in catalogue {}",
                    crate::core::clip_text(id, 20),
                    catalogue.set.id
                ))
            })?;
            cards.insert(id.to_owned(), info);
        }
        Ok(())
    };
    if let Some(carry) = &rules.draft_carry {
        if carry.battle < 2 {
            return rule_error(format!(
                "draft_carry goes on with battle 2 or later, not battle {}",
                carry.battle
            ));
        }
        if carry.winner.is_some_and(|w| w > 1) {
            return rule_error("draft_carry: the winner is seat 0 or 1".into());
        }
        let mut holdings: [Vec<String>; 2] = Default::default();
        let total: usize = carry.piles.iter().map(|p| p.0.len()).sum::<usize>()
            + carry.holdings.iter().map(|h| h.0.len()).sum::<usize>();
        if total > MAX_POOL {
            return rule_error(format!(
                "the draft holds {total} cards; at most {MAX_POOL} are kept"
            ));
        }
        for (seat, h) in carry.holdings.iter().enumerate() {
            for id in &h.0 {
                known(id)?;
            }
            holdings[seat] = sorted(h.0.clone());
        }
        let mut piles = Vec::new();
        for p in &carry.piles {
            for id in &p.0 {
                known(id)?;
            }
            piles.push(Pile {
                cards: p.0.clone(),
                taken: None,
            });
        }
        return Ok(Some(Box::new(Draft {
            battle: carry.battle,
            piles,
            holdings,
            picker: carry.winner.map(other),
            winner: carry.winner,
            decks: Default::default(),
            built: [false; 2],
            took: Vec::new(),
            gave: Vec::new(),
        })));
    }
    let mut copies = Vec::new();
    for entry in pool {
        let (id, n) = match entry.split_once('*') {
            Some((id, n)) => {
                let n = n
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_COPIES).contains(n))
                    .ok_or_else(|| {
                        SetupError::Rules(format!(
                            "draft_pool: `{}` asks for a number of copies from 1 to {MAX_COPIES}",
                            crate::core::clip_text(entry, 30)
                        ))
                    })?;
                (id.trim(), n)
            }
            None => (entry.trim(), 1),
        };
        let ids: Vec<String> = if id == "all" {
            catalogue
                .cards
                .iter()
                .filter(|c| c.junk_ken().is_some())
                .map(|c| c.id.clone())
                .collect()
        } else {
            vec![id.to_owned()]
        };
        if copies.len() + ids.len().saturating_mul(n) > MAX_POOL {
            return rule_error(format!(
                "draft_pool: more than {MAX_POOL} cards; a draft needs some 100"
            ));
        }
        for id in ids {
            known(&id)?;
            copies.extend(std::iter::repeat_n(id, n));
        }
    }
    let (ex, non_ex): (Vec<String>, Vec<String>) = copies
        .into_iter()
        .partition(|id| cards.get(id).is_some_and(|c| c.data.is_extra()));
    let piles = deal(non_ex, ex, rules.draft_seed);
    if piles.is_empty() {
        return rule_error(
            "draft_pool: fewer than 5 main-deck cards, so not one pile of 5 can be dealt".into(),
        );
    }
    Ok(Some(Box::new(Draft {
        battle: 1,
        piles,
        holdings: Default::default(),
        picker: None,
        winner: None,
        decks: Default::default(),
        built: [false; 2],
        took: Vec::new(),
        gave: Vec::new(),
    })))
}

/// The app's deal (①): the main-deck cards shuffled into piles of 5 (an incomplete last pile is
/// not used), then the shuffled EX cards added one to each pile in turn (surplus ones are not
/// used).
pub fn deal(mut non_ex: Vec<String>, mut ex: Vec<String>, seed: u64) -> Vec<Pile> {
    let mut rng = SplitMix(seed);
    shuffle(&mut non_ex, &mut rng);
    shuffle(&mut ex, &mut rng);
    let mut ex = ex.into_iter();
    non_ex
        .chunks_exact(5)
        .map(|five| {
            let mut cards = five.to_vec();
            cards.extend(ex.next());
            Pile { cards, taken: None }
        })
        .collect()
}

/// splitmix64: a small, fixed generator, so a stored seed deals the same piles on every build.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Fisher–Yates.
fn shuffle(v: &mut [String], rng: &mut SplitMix) {
    for i in (1..v.len()).rev() {
        let j = usize::try_from(rng.next() % (i as u64 + 1)).unwrap_or(0);
        v.swap(i, j);
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn count(list: &[String], id: &str) -> usize {
    list.iter().filter(|c| c.as_str() == id).count()
}

fn remove_one(list: &mut Vec<String>, id: &str) -> bool {
    match list.iter().position(|c| c == id) {
        Some(i) => {
            list.remove(i);
            true
        }
        None => false,
    }
}

fn insert_sorted(list: &mut Vec<String>, id: &str) {
    let i = list.partition_point(|c| c.as_str() < id);
    list.insert(i, id.to_owned());
}

/// The draft's step names for refusals (English, Japanese).
fn step_names(step: Step) -> (&'static str, &'static str) {
    match step {
        Step::Exchange => (
            "the exchange before pack purchase 2",
            "パック購入フェーズ2の前の交換",
        ),
        Step::Purchase => ("the pack purchase", "パック購入フェーズ"),
        Step::Build => ("the deck building", "デッキ構築フェーズ"),
        _ => ("the battle", "対戦フェーズ"),
    }
}

/// What a move of the battle is, given to the draft's rules.
const NOT_A_DRAFT_MOVE: &str = "not a move of the draft";

fn wrong_draft_step(state: &State, what: (&str, &str), when: Step) -> Violation {
    let (now_en, now_ja) = step_names(state.table.step);
    let (when_en, when_ja) = step_names(when);
    Violation::wrong_phase(
        "junk-ken.draft-order",
        REF_ORDER,
        [what.0, when_en, now_en],
        [what.1, when_ja, now_ja],
    )
}

/// The rules of the draft's moves (`Pick`, the exchange, deck building).
pub(super) fn decide(
    t: &mut Scratch<'_>,
    mv: &Move,
    v: &mut Vec<Violation>,
) -> Result<(), Impossible> {
    let state = t.before;
    let Some(draft) = state.table.draft.as_deref() else {
        return Err(Impossible::new(
            "this match has no pack purchase: its decks came with the players (a draft match is started with a pool, house rule draft_pool)",
        ));
    };
    let mut d = draft.clone();
    let step = state.table.step;
    let name = |s: Seat| state.name(s).to_owned();
    let known = |id: &str| -> Result<(), Impossible> {
        if state.cards.contains_key(id) {
            Ok(())
        } else {
            Err(Impossible::new(format!(
                "card `{}` is not among the draft's cards",
                crate::core::clip_text(id, 20)
            )))
        }
    };
    // Each draft move has its step; out of it the table may still make the move (override).
    // (Checked first; a move that is impossible is refused as that, whatever the step.)
    let (what, when) = match mv {
        Move::Pick { .. } => (("Picking a pile", "山を選ぶの"), Step::Purchase),
        Move::ExchangeTake { .. } | Move::ExchangeGive { .. } => {
            (("The winner's exchange", "勝者の交換"), Step::Exchange)
        }
        Move::ExchangeDone {} => (("Ending the exchange", "交換の終了"), Step::Exchange),
        Move::DeckAdd { .. }
        | Move::DeckRemove { .. }
        | Move::BuildDeck { .. }
        | Move::DeckDone { .. } => (("Building a deck", "デッキを作るの"), Step::Build),
        _ => return Err(Impossible::new(NOT_A_DRAFT_MOVE)),
    };
    if step != when {
        v.push(wrong_draft_step(state, what, when));
    }
    match mv {
        Move::Pick { player, pile } => {
            check_seat(*player)?;
            let n = d.piles.len();
            let i = usize::try_from(*pile)
                .ok()
                .filter(|i| (1..=n).contains(i))
                .ok_or_else(|| {
                    Impossible::new(format!("there is no pile {pile}: the piles are 1–{n}"))
                })?;
            if let Some(by) = d.piles[i - 1].taken {
                return Err(Impossible::new(format!(
                    "pile {pile} is already in {}'s holdings",
                    name(by)
                )));
            }
            if let Some(p) = d.picker.filter(|p| p != player) {
                let reference = if d.first_purchase() {
                    REF_PICK
                } else {
                    REF_PICK2
                };
                v.push(
                    Violation::new(
                        "junk-ken.draft-pick-order",
                        format!("It is {}'s pick: the players pick piles in turn.", name(p)),
                        reference,
                    )
                    .ja(format!("{}が山を選ぶ番です。山は交互に選びます。", name(p))),
                );
            }
            let held = d.holdings[*player].len();
            if d.first_purchase() && held > DRAFT_HOLDINGS {
                v.push(
                    Violation::new(
                        "junk-ken.draft-holdings",
                        format!(
                            "{} holds {held} cards, over {DRAFT_HOLDINGS}: a player picks piles only until the holdings exceed {DRAFT_HOLDINGS}.",
                            name(*player)
                        ),
                        REF_PICK,
                    )
                    .ja(format!(
                        "{}の持ち札は{held}枚で、{DRAFT_HOLDINGS}枚を超えています。山を選ぶのは持ち札が{DRAFT_HOLDINGS}枚を超えるまでです。",
                        name(*player)
                    )),
                );
            }
            d.piles[i - 1].taken = Some(*player);
            let cards = d.piles[i - 1].cards.clone();
            d.holdings[*player].extend(cards);
            d.holdings[*player].sort();
            let next = other(*player);
            d.picker = if d.may_pick(next) {
                Some(next)
            } else if d.may_pick(*player) {
                Some(*player)
            } else {
                None
            };
            if step == Step::Purchase && !d.may_pick(0) && !d.may_pick(1) {
                t.s.table.step = Step::Build;
            }
        }
        Move::ExchangeTake { card } | Move::ExchangeGive { card } => {
            known(card)?;
            let Some(winner) = d.winner else {
                return Err(Impossible::new(
                    "the previous battle was a draw: no winner exchanges cards",
                ));
            };
            let loser = other(winner);
            let take = matches!(mv, Move::ExchangeTake { .. });
            let (from, to) = if take {
                (loser, winner)
            } else {
                (winner, loser)
            };
            if !remove_one(&mut d.holdings[from], card) {
                return Err(Impossible::new(format!(
                    "{}'s holdings have no {}",
                    name(from),
                    state.label(card)
                )));
            }
            insert_sorted(&mut d.holdings[to], card);
            let done = if take { &mut d.took } else { &mut d.gave };
            done.push(card.clone());
            if done.len() > 2 {
                let (en, ja) = if take {
                    ("takes", "受け取る")
                } else {
                    ("gives", "渡す")
                };
                v.push(exchange_count(state, winner, en, ja, done.len()));
            }
        }
        Move::ExchangeDone {} => {
            let Some(winner) = d.winner else {
                return Err(Impossible::new(
                    "the previous battle was a draw: there is no exchange to end",
                ));
            };
            if d.took.len() != 2 {
                v.push(exchange_count(
                    state,
                    winner,
                    "takes",
                    "受け取る",
                    d.took.len(),
                ));
            }
            if d.gave.len() != 2 {
                v.push(exchange_count(state, winner, "gives", "渡す", d.gave.len()));
            }
            if step == Step::Exchange {
                t.s.table.step = if d.may_pick(0) || d.may_pick(1) {
                    Step::Purchase
                } else {
                    Step::Build
                };
            }
        }
        Move::DeckAdd { player, card } => {
            check_seat(*player)?;
            known(card)?;
            let held = count(&d.holdings[*player], card);
            let used = count(&d.decks[*player], card);
            if used >= held {
                v.push(not_held(state, *player, card, held, used + 1));
            }
            insert_sorted(&mut d.decks[*player], card);
            d.built[*player] = false;
        }
        Move::DeckRemove { player, card } => {
            check_seat(*player)?;
            known(card)?;
            if !remove_one(&mut d.decks[*player], card) {
                return Err(Impossible::new(format!(
                    "{}'s deck has no {}",
                    name(*player),
                    state.label(card)
                )));
            }
            d.built[*player] = false;
        }
        Move::BuildDeck { player, .. } | Move::DeckDone { player } => {
            check_seat(*player)?;
            if let Move::BuildDeck { cards, .. } = mv {
                for id in &cards.0 {
                    known(id)?;
                }
                d.decks[*player] = sorted(cards.0.clone());
                let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
                for id in &cards.0 {
                    *seen.entry(id.as_str()).or_default() += 1;
                }
                for (id, used) in seen {
                    let held = count(&d.holdings[*player], id);
                    if used > held {
                        v.push(not_held(state, *player, id, held, used));
                    }
                }
            }
            let (extra, main): (Vec<&str>, Vec<&str>) = d.decks[*player]
                .iter()
                .map(String::as_str)
                .partition(|id| state.cards.get(*id).is_some_and(|c| c.data.is_extra()));
            let lookup = |id: &str| {
                state.cards.get(id).map(|c| Look {
                    name_ja: &c.name_ja,
                    name_en: &c.name_en,
                    data: &c.data,
                })
            };
            for mut broken in check_lists(DeckRules::DRAFT, &main, &extra, &lookup) {
                broken.sentence = format!("{}: {}", name(*player), broken.sentence);
                if !broken.sentence_ja.is_empty() {
                    broken.sentence_ja = format!("{}: {}", name(*player), broken.sentence_ja);
                }
                v.push(broken);
            }
            d.built[*player] = true;
            if step == Step::Build && d.built[other(*player)] {
                // Both decks are built: the battle (③) begins, the decks shuffled and dealt.
                for seat in 0..2 {
                    let (extra, main): (Vec<String>, Vec<String>) = d.decks[seat]
                        .iter()
                        .cloned()
                        .partition(|id| state.cards.get(id).is_some_and(|c| c.data.is_extra()));
                    t.s.players[seat] =
                        seat_state(name(seat), sorted(main), sorted(extra), &state.rules);
                }
                t.s.table.step = Step::Set;
            }
        }
        _ => return Err(Impossible::new(NOT_A_DRAFT_MOVE)),
    }
    t.s.table.draft = Some(Box::new(d));
    Ok(())
}

fn exchange_count(state: &State, winner: Seat, en: &str, ja: &str, n: usize) -> Violation {
    Violation::new(
        "junk-ken.draft-exchange",
        format!(
            "The winner takes 2 cards from the loser's holdings and gives 2 in return; {} {en} {n}.",
            state.name(winner)
        ),
        REF_EXCHANGE,
    )
    .ja(format!(
        "勝者は相手の持ち札から2枚受け取り、代わりに2枚渡します。{}が{ja}のは{n}枚です。",
        state.name(winner)
    ))
}

fn not_held(state: &State, seat: Seat, card: &str, held: usize, used: usize) -> Violation {
    Violation::new(
        "junk-ken.draft-own-holdings",
        format!(
            "{} builds the deck from their own holdings, which have {held} × {}; this deck would hold {used}.",
            state.name(seat),
            state.label(card)
        ),
        REF_BUILD,
    )
    .ja(format!(
        "デッキは自分の持ち札から作ります。{}の持ち札の{}は{held}枚で、このデッキでは{used}枚になります。",
        state.name(seat),
        state
            .cards
            .get(card)
            .map_or_else(|| card.to_owned(), |c| c.name_ja.clone())
    ))
}

impl State {
    /// The size of draft pile `pile` (numbered from 1); 0 for no such pile.
    pub fn pile_size(&self, pile: u32) -> usize {
        usize::try_from(pile)
            .ok()
            .and_then(|i| self.table.draft.as_ref()?.piles.get(i.checked_sub(1)?))
            .map_or(0, |p| p.cards.len())
    }

    /// The draft's previous winner, who exchanges cards with the loser (seat 0 when none is
    /// recorded).
    pub fn draft_winner(&self) -> Seat {
        self.table
            .draft
            .as_ref()
            .and_then(|d| d.winner)
            .unwrap_or(0)
            .min(1)
    }

    /// The draft of this match, carried to its next battle (a new match with house rule
    /// `draft_carry`): `None` for a match without a pack purchase, or one whose battle has not
    /// ended.
    pub fn next_battle(&self) -> Option<DraftCarry> {
        let d = self.table.draft.as_deref()?;
        let outcome = super::view::outcome(self)?;
        let winner = match outcome {
            crate::core::Outcome::Win { winner, .. } => Some(winner),
            _ => None,
        };
        Some(DraftCarry {
            battle: d.battle + 1,
            holdings: [
                crate::core::CardList(d.holdings[0].clone()),
                crate::core::CardList(d.holdings[1].clone()),
            ],
            piles: d
                .piles
                .iter()
                .filter(|p| p.taken.is_none())
                .map(|p| crate::core::CardList(p.cards.clone()))
                .collect(),
            winner,
        })
    }
}

/// The header of the next battle of a draft whose battle is over (`header` is this match's):
/// the same players and house rules, no decks (they are built again from the holdings), the
/// pool replaced by the carried draft. `None` when [`State::next_battle`] is.
pub fn next_battle_header(state: &State, header: &MatchHeader) -> Option<MatchHeader> {
    let carry = state.next_battle()?;
    let mut header = header.clone();
    let mut rules = match std::mem::take(&mut header.rules) {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    rules.remove("draft_pool");
    rules.insert("draft".into(), serde_json::Value::Bool(true));
    rules.insert("draft_carry".into(), serde_json::to_value(carry).ok()?);
    header.rules = serde_json::Value::Object(rules);
    for p in &mut header.players {
        p.deck.clear();
    }
    Some(header)
}

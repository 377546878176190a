//! ジャケン (Jaken): a 2-player, 10-battle duel for soul balls (SB, 魂玉).
//!
//! Follows `rules/jaken.md`. Each battle runs the plan phase (バトルプランフェイズ: the OB is
//! placed, both draw, the parent may declare a BG, the child may counter only then, both place a
//! monster face down), the battle phase (バトルフェイズ: both reveal, effects resolve parent first
//! under their wind conditions 自家/他家/両家, ATK/DEF are compared in both directions and SB move)
//! and the battle end (バトルエンド: the OB passes to the other player). A player at 0 SB loses at
//! once; after battle 10 the player with more SB wins.
//!
//! The app cannot see the players' hands, so it tracks each player's *unplayed* cards (deck and
//! hand together) and the hand and deck sizes; a card revealed must be one of the unplayed cards.
//! Free-text effects are resolved by the players and entered as ATK/DEF (or SB) changes.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::games::jaken::{demo_header, Jaken, Move};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::jaken_demo().unwrap();
//! let mut m = Match::<Jaken>::new(demo_header(&cat, ["Aki", "Ben"], ["lantern", "gale"]).unwrap(), &cat).unwrap();
//! for mv in [Move::FirstParent { player: 0 }, Move::PassBg { player: 0 }] {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//!     m.commit(p);
//! }
//! assert_eq!(m.state().players[0].hand, 6); // 5 at setup + the battle-1 draw
//! ```

use crate::catalogue::{Card, Catalogue, JakenCard, JakenMonster, Wind};
use crate::core::{
    Decision, GameId, Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat,
    Tracker, TrackerId, Violation,
};
use crate::game::{Game, MatchHeader, PlayerConfig, SetupError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Soul balls each player starts with.
pub const START_SB: i32 = 10;
/// Cards drawn at setup.
pub const START_HAND: i32 = 5;
/// Cards in a deck.
pub const DECK_SIZE: usize = 15;
/// Battles in a match.
pub const BATTLES: u32 = 10;
/// Copies allowed per card name.
pub const MAX_COPIES: usize = 2;

/// The marker type of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jaken;

/// How the two strikes of a battle are settled (rules digest §10 #2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Settlement {
    /// Both strikes are added up and settled as one net transfer (default).
    #[default]
    Net,
    /// The parent's strike is settled first; if a player reaches 0 the child's strike is not.
    ParentFirst,
}

/// House rules: the gaps of `rules/jaken.md` §10 that players could settle differently.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// §10 #2: how the two strikes are settled.
    pub settlement: Settlement,
    /// §10 #12: both players also draw in battle 1 (5 + 10 = 15 cards).
    pub draw_in_battle_1: bool,
    /// §10 #11: ATK and DEF below 0 after effects count as 0.
    pub clamp_negative: bool,
    /// §10 #9: a BG may be used several times in one battle, within its limit.
    pub bg_multiple_uses_per_battle: bool,
    /// §10 #8: a BG stays in the zone across battles until its uses run out (otherwise it goes to
    /// the trash at the battle end).
    pub bg_stays_until_exhausted: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            settlement: Settlement::Net,
            draw_in_battle_1: true,
            clamp_negative: true,
            bg_multiple_uses_per_battle: true,
            bg_stays_until_exhausted: true,
        }
    }
}

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Setup: janken decides the first parent.
    Janken,
    /// P3: the parent may declare a BG card.
    ParentBg,
    /// P4: the child may counter with a BG card (only after the parent declared one).
    ChildCounter,
    /// P5: both place a monster face down.
    FaceDown,
    /// B1: both reveal.
    Reveal,
    /// B2: effects resolve, parent first.
    Effects,
    /// B4: compare ATK/DEF and move SB.
    Compare,
    /// E1: the parent hands the OB over.
    BattleEnd,
    /// The match is over.
    Over,
}

impl Step {
    /// True from P3 until just before the SB comparison: the "strategy phase" (戦略フェーズ) in
    /// which BG uses may be declared (rules digest §10 #7).
    pub fn is_strategy_phase(self) -> bool {
        matches!(
            self,
            Step::ParentBg
                | Step::ChildCounter
                | Step::FaceDown
                | Step::Reveal
                | Step::Effects
                | Step::Compare
        )
    }
}

/// What a player has on the battle field this battle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", content = "card", rename_all = "kebab-case")]
pub enum Placement {
    /// Nothing yet.
    #[default]
    Empty,
    /// A monster face down.
    FaceDown,
    /// No legal card: counts as ATK 0 / DEF 0 with no effect (§10 #5).
    NoMonster,
    /// The revealed monster's card id.
    Revealed(String),
}

/// A BG card in a player's BG zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgZone {
    /// Card id.
    pub card: String,
    /// Uses left before it is turned face down.
    pub uses_left: u8,
    /// False once exhausted (turned face down).
    pub face_up: bool,
    /// Uses declared this battle.
    pub uses_this_battle: u8,
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The name at the table.
    pub name: String,
    /// Soul balls (魂玉).
    pub sb: i32,
    /// Cards in hand.
    pub hand: i32,
    /// Cards in the deck.
    pub deck: i32,
    /// Card ids not yet played (deck and hand together), sorted.
    pub unplayed: Vec<String>,
    /// Card ids in the trash, in order.
    pub trash: Vec<String>,
    /// The BG zone.
    pub bg: Option<BgZone>,
    /// The battle field.
    pub placement: Placement,
    /// ATK change this battle from effects.
    pub atk_mod: i32,
    /// DEF change this battle from effects.
    pub def_mod: i32,
    /// ATK change this battle from BG uses (applies only to the BG's tribe).
    pub bg_atk: i32,
    /// DEF change this battle from BG uses (applies only to the BG's tribe).
    pub bg_def: i32,
}

/// The last battle's result, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeReport {
    /// Battle number.
    pub battle: u32,
    /// Effective (ATK, DEF) of each seat.
    pub values: [(i32, i32); 2],
    /// SB each seat gained (negative: paid) from its own strike.
    pub strikes: [i32; 2],
    /// SB actually moved to each seat (after the cap).
    pub moved: [i32; 2],
    /// Notes, e.g. a BG bonus that did not apply.
    pub notes: Vec<String>,
}

/// The card data the game needs, copied from the catalogue at setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInfo {
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Rules text.
    pub text: String,
    /// NM/EM or BG data.
    pub data: JakenCard,
}

impl CardInfo {
    fn label(&self) -> String {
        format!("{} ({})", self.name_ja, self.name_en)
    }
}

/// The whole state of a Jaken match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// House rules.
    pub rules: Rules,
    /// The two players.
    pub players: [PlayerState; 2],
    /// Card data by id (shared: it never changes during a match).
    pub cards: Arc<BTreeMap<String, CardInfo>>,
    /// Battle number, 1..=10 (0 before the first parent is chosen).
    pub turn: u32,
    /// The parent (親, OB holder).
    pub parent: Option<Seat>,
    /// Current step.
    pub step: Step,
    /// True once the parent declared a BG this battle.
    pub parent_declared_bg: bool,
    /// Effects still to resolve this battle, in order.
    pub pending_effects: Vec<Seat>,
    /// The last battle's result.
    pub last_strike: Option<StrikeReport>,
}

/// A move at the Jaken table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Move {
    /// Setup: the janken winner becomes the first parent.
    FirstParent {
        /// The winner.
        player: Seat,
    },
    /// P3/P4: declare a BG card from hand and place it in the BG zone.
    DeclareBg {
        /// Who declares.
        player: Seat,
        /// The BG card id.
        card: String,
    },
    /// P3/P4: declare no BG.
    PassBg {
        /// Who passes.
        player: Seat,
    },
    /// P5: place a monster face down.
    FaceDown {
        /// Who places.
        player: Seat,
    },
    /// P5: no card in hand can be summoned; play nothing (ATK 0 / DEF 0).
    NoMonster {
        /// Who plays nothing.
        player: Seat,
    },
    /// B1: turn the face-down monster over.
    Reveal {
        /// Whose monster.
        player: Seat,
        /// Its card id.
        card: String,
    },
    /// B2: the players resolved this player's effect; enter its result.
    Effect {
        /// Whose effect.
        player: Seat,
        /// Change to the player's own ATK.
        #[serde(default)]
        atk: i32,
        /// Change to the player's own DEF.
        #[serde(default)]
        def: i32,
        /// Change to the opponent's ATK.
        #[serde(default)]
        opp_atk: i32,
        /// Change to the opponent's DEF.
        #[serde(default)]
        opp_def: i32,
        /// SB the player takes from the opponent (negative: gives).
        #[serde(default)]
        sb: i32,
        /// What the effect did, in the players' words.
        #[serde(default)]
        note: String,
    },
    /// B2: the effect's printed condition is not met; it does nothing.
    NoEffect {
        /// Whose effect.
        player: Seat,
    },
    /// B3: declare uses of one's BG ("BG effect! (uses 1) this monster +1 ATK").
    UseBg {
        /// Whose BG.
        player: Seat,
        /// Uses spent.
        uses: u8,
        /// ATK change for the player's monster (only for the BG's tribe).
        #[serde(default)]
        atk: i32,
        /// DEF change for the player's monster (only for the BG's tribe).
        #[serde(default)]
        def: i32,
    },
    /// B4/B5: compare ATK/DEF, move SB, send both monsters to the trash.
    Compare,
    /// E1: the parent hands the OB over; the next battle begins (or the match ends after 10).
    EndBattle,
}

/// One change of a Jaken state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The parent is now this seat.
    ParentIs(Seat),
    /// A new battle begins: per-battle values reset.
    BattleBegan(u32),
    /// A player drew a card.
    Drew(Seat),
    /// The match moves to a step.
    StepTo(Step),
    /// A BG card was placed (an exhausted BG in the zone goes to the trash).
    BgPlaced(Seat, String),
    /// The parent declared a BG this battle.
    ParentDeclaredBg,
    /// A monster was placed (true) or the player plays nothing (false).
    Placed(Seat, bool),
    /// A monster was revealed.
    Revealed(Seat, String),
    /// The effects to resolve, in order.
    EffectsPending(Vec<Seat>),
    /// One effect was resolved: changes to (own ATK, own DEF) and (opponent ATK, opponent DEF).
    EffectResolved(Seat, [i32; 4]),
    /// SB moved from one seat to the other.
    SbMoved {
        /// Payer.
        from: Seat,
        /// Receiver.
        to: Seat,
        /// How many.
        amount: i32,
    },
    /// A BG was used: uses spent, ATK and DEF changes.
    BgUsed(Seat, u8, i32, i32),
    /// A BG was turned face down (uses exhausted).
    BgFlipped(Seat),
    /// A BG went to the trash.
    BgDiscarded(Seat),
    /// The battle's result.
    Struck(StrikeReport),
    /// The monster on the field went to the trash.
    Trashed(Seat),
    /// Manual: set SB.
    SetSb(Seat, i32),
    /// Manual: set hand size.
    SetHand(Seat, i32),
    /// Manual: set deck size.
    SetDeck(Seat, i32),
    /// Manual: set ATK and DEF changes.
    SetMods(Seat, i32, i32),
    /// Manual: set BG uses left.
    SetBgUses(Seat, u8),
    /// Manual: set the battle number.
    SetTurn(u32),
}

fn other(seat: Seat) -> Seat {
    1 - seat
}

fn check_seat(seat: Seat) -> Result<(), Impossible> {
    if seat < 2 {
        Ok(())
    } else {
        Err(Impossible::new(format!(
            "Jaken has seats 0 and 1, not {seat}"
        )))
    }
}

/// Largest change one effect may enter for a number (ATK, DEF or SB).
pub const MAX_CHANGE: i32 = 99;

fn check_change(values: &[i32]) -> Result<(), Impossible> {
    match values
        .iter()
        .find(|v| v.unsigned_abs() > MAX_CHANGE.unsigned_abs())
    {
        Some(v) => Err(Impossible::new(format!(
            "a change of {v} is outside ±{MAX_CHANGE}"
        ))),
        None => Ok(()),
    }
}

/// Checks a deck against the construction rules (15 cards, ≤ 2 per name, one BG name).
pub fn check_deck(deck: &[String], catalogue: &Catalogue) -> Result<Vec<Violation>, String> {
    let mut v = Vec::new();
    if deck.len() != DECK_SIZE {
        v.push(Violation::new(
            "jaken.deck-size",
            format!(
                "A deck has exactly {DECK_SIZE} cards; this one has {}.",
                deck.len()
            ),
            "jaken.md §2; seed ① 1デッキ15枚編成",
        ));
    }
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bg_names: Vec<&str> = Vec::new();
    for id in deck {
        let card = catalogue.card(id).ok_or_else(|| id.clone())?;
        *by_name.entry(card.name_ja.as_str()).or_default() += 1;
        if matches!(card.jaken(), Some(JakenCard::BattleGround(_)))
            && !bg_names.contains(&card.name_ja.as_str())
        {
            bg_names.push(card.name_ja.as_str());
        }
    }
    for (name, n) in by_name {
        if n > MAX_COPIES {
            v.push(Violation::new(
                "jaken.deck-copies",
                format!("At most {MAX_COPIES} cards of one name: {name} appears {n} times."),
                "jaken.md §2; seed ① 同じ名前のカードは2枚まで",
            ));
        }
    }
    if bg_names.len() > 1 {
        bg_names.sort_unstable();
        v.push(Violation::new(
            "jaken.deck-bg",
            format!(
                "A deck holds BG cards of one name only; this one has {}.",
                bg_names.join(", ")
            ),
            "jaken.md §2; seed ① フィールドカードは1種類",
        ));
    }
    Ok(v)
}

/// A header for a match with decks from a catalogue's ready-made decks.
pub fn demo_header(
    catalogue: &Catalogue,
    names: [&str; 2],
    decks: [&str; 2],
) -> Result<MatchHeader, SetupError> {
    MatchHeader::with_ready_made_decks(GameId::Jaken, catalogue, &names, &decks)
}

impl State {
    fn card(&self, id: &str) -> Result<&CardInfo, Impossible> {
        self.cards
            .get(id)
            .ok_or_else(|| Impossible::new(format!("card `{id}` is in neither player's deck")))
    }

    fn monster(&self, id: &str) -> Option<&JakenMonster> {
        match self.cards.get(id).map(|c| &c.data) {
            Some(JakenCard::Monster(m)) => Some(m),
            _ => None,
        }
    }

    fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }

    fn revealed(&self, seat: Seat) -> Option<(&str, &JakenMonster)> {
        match &self.players.get(seat)?.placement {
            Placement::Revealed(id) => self.monster(id).map(|m| (id.as_str(), m)),
            _ => None,
        }
    }

    /// Whether the seat's EM effect works this battle under its wind condition.
    pub fn wind_allows(&self, seat: Seat, wind: Wind) -> bool {
        let is_parent = self.parent == Some(seat);
        match wind {
            Wind::Jicha => is_parent,
            Wind::Tacha => !is_parent,
            Wind::Ryancha => true,
        }
    }

    /// Effective (ATK, DEF) of a seat's monster this battle, and notes on BG bonuses not applied.
    pub fn effective(&self, seat: Seat) -> ((i32, i32), Option<String>) {
        let Some(p) = self.players.get(seat) else {
            return ((0, 0), None);
        };
        let Some((_, m)) = self.revealed(seat) else {
            return ((0, 0), None);
        };
        let mut atk = m.atk + p.atk_mod;
        let mut def = m.def + p.def_mod;
        let mut note = None;
        if p.bg_atk != 0 || p.bg_def != 0 {
            let tribe_ok =
                p.bg.as_ref()
                    .and_then(|bg| match self.cards.get(&bg.card).map(|c| &c.data) {
                        Some(JakenCard::BattleGround(b)) => Some(b.target_tribe == m.tribe),
                        _ => None,
                    })
                    .unwrap_or(false);
            if tribe_ok {
                atk += p.bg_atk;
                def += p.bg_def;
            } else {
                note = Some(format!(
                    "{}'s BG bonus does not apply: the BG works only for its own tribe, not {}",
                    p.name, m.tribe
                ));
            }
        }
        if self.rules.clamp_negative {
            atk = atk.max(0);
            def = def.max(0);
        }
        ((atk, def), note)
    }
}

/// One strike (attacker's ATK against the defender's DEF): SB the attacker gains, negative when
/// the attacker pays (`rules/jaken.md` §5).
pub fn strike(atk: i32, def: i32) -> i32 {
    if atk > def {
        atk - def
    } else if atk == def {
        0
    } else {
        -atk
    }
}

/// Moves `gain` SB to `seat` (negative: `seat` pays), capped at the payer's SB.
fn settle(sb: &mut [i32; 2], seat: Seat, gain: i32, events: &mut Vec<Event>, moved: &mut [i32; 2]) {
    let (from, to, due) = if gain >= 0 {
        (other(seat), seat, gain)
    } else {
        (seat, other(seat), -gain)
    };
    let amount = due.min(sb[from].max(0));
    if amount > 0 {
        sb[from] -= amount;
        sb[to] += amount;
        moved[to] += amount;
        moved[from] -= amount;
        events.push(Event::SbMoved { from, to, amount });
    }
}

/// Runs events on a scratch copy so that later steps of one move see earlier ones.
struct Builder {
    state: State,
    events: Vec<Event>,
}

impl Builder {
    fn new(state: &State) -> Self {
        Builder {
            state: state.clone(),
            events: Vec::new(),
        }
    }
    fn push(&mut self, event: Event) {
        Jaken::apply(&mut self.state, &event);
        self.events.push(event);
    }
    /// Enters a step, running its automatic begin steps (the phase hooks).
    fn enter(&mut self, step: Step) {
        self.push(Event::StepTo(step));
        match step {
            Step::Reveal if self.all_revealed() => self.begin_effects(),
            Step::Effects if self.state.pending_effects.is_empty() => {
                self.push(Event::StepTo(Step::Compare))
            }
            _ => {}
        }
    }
    fn all_revealed(&self) -> bool {
        self.state
            .players
            .iter()
            .all(|p| matches!(p.placement, Placement::Revealed(_) | Placement::NoMonster))
    }
    /// B2 begins: effects whose wind allows them, parent first.
    fn begin_effects(&mut self) {
        let Some(parent) = self.state.parent else {
            return;
        };
        let order: Vec<Seat> = [parent, other(parent)]
            .into_iter()
            .filter(|&s| {
                self.state
                    .revealed(s)
                    .and_then(|(_, m)| m.wind)
                    .is_some_and(|w| self.state.wind_allows(s, w))
            })
            .collect();
        self.push(Event::EffectsPending(order));
        self.enter(Step::Effects);
    }
    /// P1–P2: a battle begins: the OB on the parent's turn count, both draw.
    fn begin_battle(&mut self, turn: u32) {
        self.push(Event::BattleBegan(turn));
        if turn > 1 || self.state.rules.draw_in_battle_1 {
            for seat in 0..2 {
                if self.state.players[seat].deck > 0 {
                    self.push(Event::Drew(seat));
                }
            }
        }
        self.enter(Step::ParentBg);
    }
    fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        Decision {
            events: self.events,
            violations,
        }
    }
}

fn wrong_step(state: &State, what: &str, when: &str) -> Violation {
    Violation::new(
        "jaken.phase-order",
        format!(
            "{what} belongs to {when}; the match is at {}.",
            step_text(state)
        ),
        "jaken.md §3",
    )
}

fn step_text(state: &State) -> String {
    match state.step {
        Step::Janken => "setup: janken for the first parent".into(),
        Step::ParentBg => format!("battle {} P3: the parent may declare a BG", state.turn),
        Step::ChildCounter => format!("battle {} P4: the child may counter with a BG", state.turn),
        Step::FaceDown => format!("battle {} P5: both place a monster face down", state.turn),
        Step::Reveal => format!("battle {} B1: both reveal", state.turn),
        Step::Effects => format!("battle {} B2: effects resolve, parent first", state.turn),
        Step::Compare => format!("battle {} B4: compare ATK/DEF and move SB", state.turn),
        Step::BattleEnd => format!("battle {} end: the parent hands over the OB", state.turn),
        Step::Over => "the end of the match".into(),
    }
}

impl Game for Jaken {
    const ID: GameId = GameId::Jaken;
    type State = State;
    type Move = Move;
    type Event = Event;
    type Rules = Rules;

    fn setup(
        players: &[PlayerConfig],
        rules: &Rules,
        catalogue: &Catalogue,
    ) -> Result<State, SetupError> {
        if players.len() != 2 {
            return Err(SetupError::PlayerCount {
                game: GameId::Jaken,
                expected: "2".into(),
                got: players.len(),
            });
        }
        let mut cards = BTreeMap::new();
        let mut seats = Vec::new();
        for p in players {
            let violations =
                check_deck(&p.deck, catalogue).map_err(|card| SetupError::UnknownCard {
                    player: p.name.clone(),
                    card,
                    catalogue: catalogue.set.id.clone(),
                })?;
            if !violations.is_empty() {
                return Err(SetupError::IllegalDeck {
                    player: p.name.clone(),
                    violations,
                });
            }
            for id in &p.deck {
                if let Some(Card {
                    name_ja,
                    name_en,
                    text,
                    data: crate::catalogue::CardData::Jaken(data),
                    ..
                }) = catalogue.card(id)
                {
                    cards.insert(
                        id.clone(),
                        CardInfo {
                            name_ja: name_ja.clone(),
                            name_en: name_en.clone(),
                            text: text.clone(),
                            data: data.clone(),
                        },
                    );
                }
            }
            let mut unplayed = p.deck.clone();
            unplayed.sort();
            seats.push(PlayerState {
                name: p.name.clone(),
                sb: START_SB,
                hand: START_HAND,
                deck: DECK_SIZE as i32 - START_HAND,
                unplayed,
                trash: Vec::new(),
                bg: None,
                placement: Placement::Empty,
                atk_mod: 0,
                def_mod: 0,
                bg_atk: 0,
                bg_def: 0,
            });
        }
        let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
            game: GameId::Jaken,
            expected: "2".into(),
            got: players.len(),
        })?;
        Ok(State {
            rules: rules.clone(),
            players: [a, b],
            cards: Arc::new(cards),
            turn: 0,
            parent: None,
            step: Step::Janken,
            parent_declared_bg: false,
            pending_effects: Vec::new(),
            last_strike: None,
        })
    }

    fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
        let mut b = Builder::new(state);
        let mut v = Vec::new();
        if state.step == Step::Over {
            return Err(Impossible::new("the match is over"));
        }
        match mv {
            Move::FirstParent { player } => {
                check_seat(*player)?;
                if state.step != Step::Janken {
                    return Err(Impossible::new(
                        "the first parent was already decided by janken",
                    ));
                }
                b.push(Event::ParentIs(*player));
                b.begin_battle(1);
            }
            Move::DeclareBg { player, card } => {
                check_seat(*player)?;
                let info = state.card(card)?;
                if !matches!(info.data, JakenCard::BattleGround(_)) {
                    return Err(Impossible::new(format!(
                        "{} is a monster, not a BG card",
                        info.label()
                    )));
                }
                let p = &state.players[*player];
                if p.unplayed.binary_search(card).is_err() {
                    return Err(Impossible::new(format!(
                        "{} has no unplayed copy of {}",
                        p.name,
                        info.label()
                    )));
                }
                if p.hand < 1 {
                    return Err(Impossible::new(format!("{} has no card in hand", p.name)));
                }
                let is_parent = state.parent == Some(*player);
                match state.step {
                    Step::ParentBg if is_parent => {}
                    Step::ChildCounter if !is_parent => {}
                    Step::ParentBg | Step::ChildCounter | Step::FaceDown if !is_parent => v.push(Violation::new(
                        "jaken.bg-counter",
                        "The child may place a BG card only as a counter, right after the parent declared one.",
                        "jaken.md §5 BG rules; seed BG発動条件 ★相手が親の場合",
                    )),
                    _ => v.push(Violation::new(
                        "jaken.bg-timing",
                        "The parent declares a BG card in the plan phase (P3), before the monsters are placed.",
                        "jaken.md §3 P3; seed BG発動条件 ★自分が親の場合",
                    )),
                }
                if p.bg.as_ref().is_some_and(|bg| bg.face_up) {
                    v.push(Violation::new(
                        "jaken.bg-one-active",
                        format!("{} already has an active BG; a new one may be placed once it is used up.", p.name),
                        "jaken.md §10 #8",
                    ));
                }
                b.push(Event::BgPlaced(*player, card.clone()));
                if state.step == Step::ParentBg && is_parent {
                    b.push(Event::ParentDeclaredBg);
                    b.enter(Step::ChildCounter);
                } else if state.step == Step::ChildCounter {
                    b.enter(Step::FaceDown);
                }
            }
            Move::PassBg { player } => {
                check_seat(*player)?;
                let is_parent = state.parent == Some(*player);
                match state.step {
                    Step::ParentBg if is_parent => b.enter(Step::FaceDown),
                    Step::ChildCounter if !is_parent => b.enter(Step::FaceDown),
                    Step::ParentBg | Step::ChildCounter => {
                        return Err(Impossible::new(format!(
                            "it is not {}'s turn to declare a BG",
                            state.name(*player)
                        )));
                    }
                    _ => {
                        return Err(Impossible::new(format!(
                            "there is no BG declaration open at {}",
                            step_text(state)
                        )));
                    }
                }
            }
            Move::FaceDown { player } | Move::NoMonster { player } => {
                check_seat(*player)?;
                let face_down = matches!(mv, Move::FaceDown { .. });
                let p = &state.players[*player];
                if p.placement != Placement::Empty {
                    return Err(Impossible::new(format!(
                        "{} already placed this battle",
                        p.name
                    )));
                }
                if face_down && p.hand < 1 {
                    return Err(Impossible::new(format!("{} has no card in hand", p.name)));
                }
                match state.step {
                    Step::FaceDown => {}
                    Step::ParentBg | Step::ChildCounter => v.push(wrong_step(
                        state,
                        "Placing a monster",
                        "P5, after the BG declarations",
                    )),
                    _ => {
                        return Err(Impossible::new(format!(
                            "monsters are placed in P5, not at {}",
                            step_text(state)
                        )));
                    }
                }
                b.push(Event::Placed(*player, face_down));
                if b.state
                    .players
                    .iter()
                    .all(|p| p.placement != Placement::Empty)
                {
                    b.enter(Step::Reveal);
                }
            }
            Move::Reveal { player, card } => {
                check_seat(*player)?;
                let info = state.card(card)?;
                let JakenCard::Monster(m) = &info.data else {
                    return Err(Impossible::new(format!(
                        "{} is a BG card, not a monster",
                        info.label()
                    )));
                };
                let p = &state.players[*player];
                if p.unplayed.binary_search(card).is_err() {
                    return Err(Impossible::new(format!(
                        "{} has no unplayed copy of {}",
                        p.name,
                        info.label()
                    )));
                }
                if p.placement != Placement::FaceDown {
                    return Err(Impossible::new(format!(
                        "{} has no face-down monster to reveal",
                        p.name
                    )));
                }
                if state.step != Step::Reveal {
                    v.push(wrong_step(
                        state,
                        "Revealing",
                        "B1, once both monsters are face down",
                    ));
                }
                if u32::from(m.cost) > state.turn {
                    v.push(Violation::new(
                        "jaken.summon-cost",
                        format!(
                            "A monster's summon cost must be at most the battle number: {} costs {}, this is battle {}.",
                            info.label(),
                            m.cost,
                            state.turn
                        ),
                        "jaken.md §5; seed ❷ 召喚コスト",
                    ));
                }
                b.push(Event::Revealed(*player, card.clone()));
                if b.all_revealed() && state.step == Step::Reveal {
                    b.begin_effects();
                }
            }
            Move::Effect {
                player,
                atk,
                def,
                opp_atk,
                opp_def,
                sb,
                ..
            } => {
                check_seat(*player)?;
                check_change(&[*atk, *def, *opp_atk, *opp_def, *sb])?;
                let Some((id, m)) = state.revealed(*player) else {
                    return Err(Impossible::new(format!(
                        "{} has no revealed monster",
                        state.name(*player)
                    )));
                };
                let label = state.card(id).map(CardInfo::label).unwrap_or_default();
                if !matches!(state.step, Step::Effects | Step::Compare) {
                    v.push(wrong_step(
                        state,
                        "Resolving an effect",
                        "B2, after both monsters are revealed",
                    ));
                }
                match m.wind {
                    None => v.push(Violation::new(
                        "jaken.no-effect",
                        format!("{label} is a normal monster (NM) and has no effect."),
                        "jaken.md §6",
                    )),
                    Some(w) if !state.wind_allows(*player, w) => v.push(Violation::new(
                        "jaken.wind",
                        format!(
                            "{label}'s effect is {}: it works only {}.",
                            w.label(),
                            match w {
                                Wind::Jicha => "while its owner is the parent",
                                Wind::Tacha => "while the opponent is the parent",
                                Wind::Ryancha => "always",
                            }
                        ),
                        "jaken.md §5 wind; seed ⑨ 効果条件",
                    )),
                    Some(_) => {
                        if state
                            .pending_effects
                            .first()
                            .is_some_and(|first| first != player)
                        {
                            v.push(Violation::new(
                                "jaken.effect-order",
                                "Effects are always activated starting from the parent (OB holder).",
                                "jaken.md §5; seed ⑥ 効果は必ず親から発動",
                            ));
                        } else if !state.pending_effects.contains(player) {
                            v.push(Violation::new(
                                "jaken.effect-once",
                                format!("{label}'s effect was already resolved this battle."),
                                "jaken.md §3 B2",
                            ));
                        }
                    }
                }
                b.push(Event::EffectResolved(
                    *player,
                    [*atk, *def, *opp_atk, *opp_def],
                ));
                if *sb != 0 {
                    let mut sbs = [state.players[0].sb, state.players[1].sb];
                    let mut moved = [0; 2];
                    let mut evs = Vec::new();
                    settle(&mut sbs, *player, *sb, &mut evs, &mut moved);
                    for e in evs {
                        b.push(e);
                    }
                }
                if state.step == Step::Effects && b.state.pending_effects.is_empty() {
                    b.enter(Step::Compare);
                }
                if b.state.players.iter().any(|p| p.sb <= 0) {
                    b.enter(Step::Over);
                }
            }
            Move::NoEffect { player } => {
                check_seat(*player)?;
                if state.step != Step::Effects || !state.pending_effects.contains(player) {
                    return Err(Impossible::new(format!(
                        "{} has no effect waiting to resolve",
                        state.name(*player)
                    )));
                }
                if state.pending_effects.first() != Some(player) {
                    v.push(Violation::new(
                        "jaken.effect-order",
                        "Effects are always activated starting from the parent (OB holder).",
                        "jaken.md §5; seed ⑥ 効果は必ず親から発動",
                    ));
                }
                b.push(Event::EffectResolved(*player, [0; 4]));
                if b.state.pending_effects.is_empty() {
                    b.enter(Step::Compare);
                }
            }
            Move::UseBg {
                player,
                uses,
                atk,
                def,
            } => {
                check_seat(*player)?;
                check_change(&[*atk, *def])?;
                let p = &state.players[*player];
                let Some(bg) = p.bg.as_ref().filter(|bg| bg.face_up) else {
                    return Err(Impossible::new(format!("{} has no active BG card", p.name)));
                };
                if *uses == 0 {
                    return Err(Impossible::new("a BG use spends at least 1"));
                }
                if !state.step.is_strategy_phase() {
                    v.push(wrong_step(
                        state,
                        "Using a BG",
                        "the strategy phase, from P3 until the SB comparison",
                    ));
                }
                if *uses > bg.uses_left {
                    v.push(Violation::new(
                        "jaken.bg-limit",
                        format!("This BG has {} use(s) left, not {uses}.", bg.uses_left),
                        "jaken.md §5 BG rules; seed 効果回数制限",
                    ));
                }
                if !state.rules.bg_multiple_uses_per_battle && bg.uses_this_battle > 0 {
                    v.push(Violation::new(
                        "jaken.bg-once-per-battle",
                        "House rule: a BG is used at most once per battle.",
                        "jaken.md §10 #9",
                    ));
                }
                if let (Some((_, m)), Some(JakenCard::BattleGround(g))) = (
                    state.revealed(*player),
                    state.cards.get(&bg.card).map(|c| &c.data),
                ) && g.target_tribe != m.tribe
                {
                    v.push(Violation::new(
                        "jaken.bg-tribe",
                        format!(
                            "This BG works only for {} monsters, not {}.",
                            g.target_tribe, m.tribe
                        ),
                        "jaken.md §5 BG rules; seed ③ 対象種族",
                    ));
                }
                let spent = (*uses).min(bg.uses_left);
                b.push(Event::BgUsed(*player, spent, *atk, *def));
                if bg.uses_left <= spent {
                    b.push(Event::BgFlipped(*player));
                }
            }
            Move::Compare => {
                if state.step != Step::Compare {
                    return Err(Impossible::new(match state.step {
                        Step::Effects => "resolve the open effects first (parent first)".to_owned(),
                        _ => format!("ATK/DEF are compared at B4, not at {}", step_text(state)),
                    }));
                }
                let Some(parent) = state.parent else {
                    return Err(Impossible::new("no parent yet"));
                };
                let mut notes = Vec::new();
                let mut values = [(0, 0); 2];
                for (seat, value) in values.iter_mut().enumerate() {
                    let (v, note) = state.effective(seat);
                    *value = v;
                    notes.extend(note);
                }
                let strikes = [
                    strike(values[0].0, values[1].1),
                    strike(values[1].0, values[0].1),
                ];
                let mut sb = [state.players[0].sb, state.players[1].sb];
                let mut moved = [0; 2];
                let mut evs = Vec::new();
                match state.rules.settlement {
                    Settlement::Net => {
                        settle(&mut sb, 0, strikes[0] - strikes[1], &mut evs, &mut moved)
                    }
                    Settlement::ParentFirst => {
                        settle(&mut sb, parent, strikes[parent], &mut evs, &mut moved);
                        if sb.iter().all(|&s| s > 0) {
                            settle(
                                &mut sb,
                                other(parent),
                                strikes[other(parent)],
                                &mut evs,
                                &mut moved,
                            );
                        }
                    }
                }
                b.push(Event::Struck(StrikeReport {
                    battle: state.turn,
                    values,
                    strikes,
                    moved,
                    notes,
                }));
                for e in evs {
                    b.push(e);
                }
                b.push(Event::Trashed(0));
                b.push(Event::Trashed(1));
                if sb.iter().any(|&s| s <= 0) {
                    b.enter(Step::Over);
                } else {
                    b.enter(Step::BattleEnd);
                }
            }
            Move::EndBattle => {
                if state.step != Step::BattleEnd {
                    return Err(Impossible::new(format!(
                        "the battle ends after the SB comparison, not at {}",
                        step_text(state)
                    )));
                }
                let Some(parent) = state.parent else {
                    return Err(Impossible::new("no parent yet"));
                };
                if !state.rules.bg_stays_until_exhausted {
                    for seat in 0..2 {
                        if state.players[seat].bg.is_some() {
                            b.push(Event::BgDiscarded(seat));
                        }
                    }
                }
                if state.turn >= BATTLES {
                    b.enter(Step::Over);
                } else {
                    b.push(Event::ParentIs(other(parent)));
                    b.begin_battle(state.turn + 1);
                }
            }
        }
        Ok(b.done(v))
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::ParentIs(seat) => state.parent = Some(*seat),
            Event::BattleBegan(turn) => {
                state.turn = *turn;
                state.parent_declared_bg = false;
                state.pending_effects.clear();
                for p in &mut state.players {
                    p.placement = Placement::Empty;
                    p.atk_mod = 0;
                    p.def_mod = 0;
                    p.bg_atk = 0;
                    p.bg_def = 0;
                    if let Some(bg) = &mut p.bg {
                        bg.uses_this_battle = 0;
                    }
                }
            }
            Event::Drew(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand += 1;
                    p.deck -= 1;
                }
            }
            Event::StepTo(step) => state.step = *step,
            Event::BgPlaced(seat, card) => {
                let limit = match state.cards.get(card).map(|c| &c.data) {
                    Some(JakenCard::BattleGround(g)) => g.use_limit,
                    _ => 0,
                };
                if let Some(p) = state.players.get_mut(*seat) {
                    if let Some(old) = p.bg.take() {
                        p.trash.push(old.card);
                    }
                    if let Ok(i) = p.unplayed.binary_search(card) {
                        p.unplayed.remove(i);
                    }
                    p.hand -= 1;
                    p.bg = Some(BgZone {
                        card: card.clone(),
                        uses_left: limit,
                        face_up: limit > 0,
                        uses_this_battle: 0,
                    });
                }
            }
            Event::ParentDeclaredBg => state.parent_declared_bg = true,
            Event::Placed(seat, face_down) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    if *face_down {
                        p.placement = Placement::FaceDown;
                        p.hand -= 1;
                    } else {
                        p.placement = Placement::NoMonster;
                    }
                }
            }
            Event::Revealed(seat, card) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    if let Ok(i) = p.unplayed.binary_search(card) {
                        p.unplayed.remove(i);
                    }
                    p.placement = Placement::Revealed(card.clone());
                }
            }
            Event::EffectsPending(order) => state.pending_effects = order.clone(),
            Event::EffectResolved(seat, [atk, def, opp_atk, opp_def]) => {
                state.pending_effects.retain(|s| s != seat);
                if let Some(p) = state.players.get_mut(*seat) {
                    p.atk_mod += atk;
                    p.def_mod += def;
                }
                if let Some(p) = state.players.get_mut(other(*seat)) {
                    p.atk_mod += opp_atk;
                    p.def_mod += opp_def;
                }
            }
            Event::SbMoved { from, to, amount } => {
                if let Some(p) = state.players.get_mut(*from) {
                    p.sb -= amount;
                }
                if let Some(p) = state.players.get_mut(*to) {
                    p.sb += amount;
                }
            }
            Event::BgUsed(seat, uses, atk, def) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.bg_atk += atk;
                    p.bg_def += def;
                    if let Some(bg) = &mut p.bg {
                        bg.uses_left = bg.uses_left.saturating_sub(*uses);
                        bg.uses_this_battle = bg.uses_this_battle.saturating_add(*uses);
                    }
                }
            }
            Event::BgFlipped(seat) => {
                if let Some(bg) = state.players.get_mut(*seat).and_then(|p| p.bg.as_mut()) {
                    bg.face_up = false;
                }
            }
            Event::BgDiscarded(seat) => {
                if let Some(p) = state.players.get_mut(*seat)
                    && let Some(bg) = p.bg.take()
                {
                    p.trash.push(bg.card);
                }
            }
            Event::Struck(report) => state.last_strike = Some(report.clone()),
            Event::Trashed(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    if let Placement::Revealed(card) = std::mem::take(&mut p.placement) {
                        p.trash.push(card);
                    }
                    p.placement = Placement::Empty;
                }
            }
            Event::SetSb(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.sb = *v;
                }
            }
            Event::SetHand(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand = *v;
                }
            }
            Event::SetDeck(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.deck = *v;
                }
            }
            Event::SetMods(seat, atk, def) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.atk_mod = *atk;
                    p.def_mod = *def;
                }
            }
            Event::SetBgUses(seat, uses) => {
                if let Some(bg) = state.players.get_mut(*seat).and_then(|p| p.bg.as_mut()) {
                    bg.uses_left = *uses;
                    bg.face_up = *uses > 0;
                }
            }
            Event::SetTurn(turn) => state.turn = *turn,
        }
    }

    fn context(state: &State) -> MatchCtx {
        let phases = vec![
            "Setup 準備".to_owned(),
            "Plan 作戦".to_owned(),
            "Battle 決戦".to_owned(),
            "Battle end 終決".to_owned(),
        ];
        let current = match state.step {
            Step::Janken => 0,
            Step::ParentBg | Step::ChildCounter | Step::FaceDown => 1,
            Step::Reveal | Step::Effects | Step::Compare => 2,
            Step::BattleEnd | Step::Over => 3,
        };
        let next = match state.step {
            Step::Janken => "battle 1: both draw, then the parent may declare a BG".to_owned(),
            Step::ParentBg => "the child may counter (only if the parent declared a BG), then both place a monster face down".to_owned(),
            Step::ChildCounter => "both place a monster face down".to_owned(),
            Step::FaceDown => "both reveal at the same time".to_owned(),
            Step::Reveal => "effects resolve, parent first".to_owned(),
            Step::Effects => "compare ATK/DEF and move SB".to_owned(),
            Step::Compare => "the parent hands over the OB".to_owned(),
            Step::BattleEnd if state.turn >= BATTLES => "the final count: more SB wins".to_owned(),
            Step::BattleEnd => format!("battle {}: both draw", state.turn + 1),
            Step::Over => "—".to_owned(),
        };
        let active = match state.step {
            Step::ParentBg | Step::BattleEnd => state.parent,
            Step::ChildCounter => state.parent.map(other),
            Step::Effects => state.pending_effects.first().copied(),
            Step::FaceDown => {
                let waiting: Vec<Seat> = (0..2)
                    .filter(|&s| state.players[s].placement == Placement::Empty)
                    .collect();
                (waiting.len() == 1).then(|| waiting[0])
            }
            Step::Reveal => {
                let waiting: Vec<Seat> = (0..2)
                    .filter(|&s| state.players[s].placement == Placement::FaceDown)
                    .collect();
                (waiting.len() == 1).then(|| waiting[0])
            }
            _ => None,
        };
        MatchCtx {
            players: state.players.iter().map(|p| p.name.clone()).collect(),
            turn: state.turn.max(1),
            phase: PhaseView {
                phases,
                current,
                step: step_text(state),
                next,
            },
            active,
            leader: state.parent,
            prompts: prompts(state),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        if let Some(loser) = (0..2).find(|&s| state.players[s].sb <= 0) {
            return Some(Outcome::Win {
                winner: other(loser),
                reason: format!("{}'s SB reached 0", state.players[loser].name),
            });
        }
        if state.step == Step::Over {
            let [a, b] = [state.players[0].sb, state.players[1].sb];
            return Some(match a.cmp(&b) {
                std::cmp::Ordering::Greater => Outcome::Win {
                    winner: 0,
                    reason: format!("more SB after battle {BATTLES} ({a} to {b})"),
                },
                std::cmp::Ordering::Less => Outcome::Win {
                    winner: 1,
                    reason: format!("more SB after battle {BATTLES} ({b} to {a})"),
                },
                std::cmp::Ordering::Equal => Outcome::Draw {
                    reason: format!("equal SB after battle {BATTLES} ({a} each)"),
                },
            });
        }
        None
    }

    fn trackers(state: &State) -> Vec<Tracker> {
        let mut out = vec![Tracker {
            id: TrackerId::game("turn"),
            label: "Battle".into(),
            value: state.turn as i32,
            min: 1,
            max: BATTLES as i32,
        }];
        let floor = if state.rules.clamp_negative { 0 } else { -99 };
        for (seat, p) in state.players.iter().enumerate() {
            out.push(Tracker {
                id: TrackerId::player(seat, "sb"),
                label: "SB 魂玉".into(),
                value: p.sb,
                min: 0,
                max: 2 * START_SB,
            });
            out.push(Tracker {
                id: TrackerId::player(seat, "hand"),
                label: "Hand 手札".into(),
                value: p.hand,
                min: 0,
                max: DECK_SIZE as i32,
            });
            out.push(Tracker {
                id: TrackerId::player(seat, "deck"),
                label: "Deck デッキ".into(),
                value: p.deck,
                min: 0,
                max: DECK_SIZE as i32,
            });
            if state.revealed(seat).is_some() {
                let ((atk, def), _) = state.effective(seat);
                out.push(Tracker {
                    id: TrackerId::player(seat, "atk"),
                    label: "ATK 攻撃力".into(),
                    value: atk,
                    min: floor,
                    max: 99,
                });
                out.push(Tracker {
                    id: TrackerId::player(seat, "def"),
                    label: "DEF 守備力".into(),
                    value: def,
                    min: floor,
                    max: 99,
                });
            }
            if let Some(bg) = &p.bg {
                let limit = match state.cards.get(&bg.card).map(|c| &c.data) {
                    Some(JakenCard::BattleGround(g)) => i32::from(g.use_limit),
                    _ => 0,
                };
                out.push(Tracker {
                    id: TrackerId::player(seat, "bg-uses"),
                    label: "BG uses left".into(),
                    value: i32::from(bg.uses_left),
                    min: 0,
                    max: limit,
                });
            }
        }
        out
    }

    fn adjust(state: &State, tracker: &TrackerId, value: i32) -> Result<Vec<Event>, Impossible> {
        let seat = tracker.player;
        let need_seat = || {
            seat.filter(|s| *s < 2)
                .ok_or_else(|| Impossible::new(format!("`{tracker}` needs a player")))
        };
        Ok(match tracker.name.as_ref() {
            "turn" => {
                vec![Event::SetTurn(u32::try_from(value).map_err(|_| {
                    Impossible::new("the battle number is positive")
                })?)]
            }
            "sb" => vec![Event::SetSb(need_seat()?, value)],
            "hand" => vec![Event::SetHand(need_seat()?, value)],
            "deck" => vec![Event::SetDeck(need_seat()?, value)],
            "atk" | "def" => {
                let s = need_seat()?;
                let ((atk, def), _) = state.effective(s);
                let p = &state.players[s];
                let (da, dd) = if tracker.name == "atk" {
                    (value - atk, 0)
                } else {
                    (0, value - def)
                };
                vec![Event::SetMods(s, p.atk_mod + da, p.def_mod + dd)]
            }
            "bg-uses" => vec![Event::SetBgUses(
                need_seat()?,
                u8::try_from(value).map_err(|_| Impossible::new("BG uses are 0..=255"))?,
            )],
            other => {
                return Err(Impossible::new(format!(
                    "Jaken keeps no number called `{other}`"
                )));
            }
        })
    }

    fn die_prompts(_state: &State) -> Vec<Prompt> {
        Vec::new() // Jaken uses no dice: every die is a free roll.
    }

    fn fulfil(_state: &State, prompt: &Prompt, _roll: &Roll) -> Result<Vec<Event>, Impossible> {
        Err(Impossible::new(format!(
            "Jaken asks for no dice (prompt {})",
            prompt.id
        )))
    }

    fn candidate_moves(state: &State) -> Vec<Move> {
        let mut out = Vec::new();
        let parent = state.parent.unwrap_or(0);
        let distinct = |seat: Seat, bg: bool| -> Vec<String> {
            let mut ids: Vec<String> = state.players[seat]
                .unplayed
                .iter()
                .filter(|id| {
                    matches!(
                        state.cards.get(*id).map(|c| &c.data),
                        Some(JakenCard::BattleGround(_))
                    ) == bg
                })
                .cloned()
                .collect();
            ids.dedup();
            ids
        };
        match state.step {
            Step::Janken => out.extend((0..2).map(|player| Move::FirstParent { player })),
            Step::ParentBg | Step::ChildCounter => {
                let seat = if state.step == Step::ParentBg {
                    parent
                } else {
                    other(parent)
                };
                out.push(Move::PassBg { player: seat });
                out.extend(
                    distinct(seat, true)
                        .into_iter()
                        .map(|card| Move::DeclareBg { player: seat, card }),
                );
            }
            Step::FaceDown => {
                for seat in 0..2 {
                    if state.players[seat].placement == Placement::Empty {
                        out.push(Move::FaceDown { player: seat });
                        out.push(Move::NoMonster { player: seat });
                    }
                }
            }
            Step::Reveal => {
                for seat in 0..2 {
                    if state.players[seat].placement == Placement::FaceDown {
                        out.extend(
                            distinct(seat, false)
                                .into_iter()
                                .map(|card| Move::Reveal { player: seat, card }),
                        );
                    }
                }
            }
            Step::Effects => {
                if let Some(&seat) = state.pending_effects.first() {
                    out.push(Move::NoEffect { player: seat });
                }
            }
            Step::Compare => out.push(Move::Compare),
            Step::BattleEnd => out.push(Move::EndBattle),
            Step::Over => {}
        }
        out
    }

    fn describe(state: &State, mv: &Move) -> String {
        let name = |s: &Seat| state.name(*s).to_owned();
        let card = |id: &str| {
            state
                .cards
                .get(id)
                .map_or_else(|| id.to_owned(), CardInfo::label)
        };
        match mv {
            Move::FirstParent { player } => {
                format!("{} wins the janken and becomes the parent", name(player))
            }
            Move::DeclareBg { player, card: c } => {
                format!("{} declares BG {}", name(player), card(c))
            }
            Move::PassBg { player } => format!("{} declares no BG", name(player)),
            Move::FaceDown { player } => format!("{} places a monster face down", name(player)),
            Move::NoMonster { player } => {
                format!("{} has no card to summon and plays nothing", name(player))
            }
            Move::Reveal { player, card: c } => format!("{} reveals {}", name(player), card(c)),
            Move::Effect {
                player,
                atk,
                def,
                opp_atk,
                opp_def,
                sb,
                note,
            } => {
                let mut parts = Vec::new();
                for (label, v) in [
                    ("ATK", atk),
                    ("DEF", def),
                    ("opponent ATK", opp_atk),
                    ("opponent DEF", opp_def),
                    ("SB taken", sb),
                ] {
                    if *v != 0 {
                        parts.push(format!("{label} {v:+}"));
                    }
                }
                format!(
                    "{}'s effect: {}",
                    name(player),
                    crate::core::effect_summary(&parts, note)
                )
            }
            Move::NoEffect { player } => {
                format!("{}'s effect: condition not met, no effect", name(player))
            }
            Move::UseBg {
                player,
                uses,
                atk,
                def,
            } => {
                format!(
                    "{} uses the BG ({uses} use): ATK {atk:+}, DEF {def:+}",
                    name(player)
                )
            }
            Move::Compare => "Compare ATK/DEF and move SB".to_owned(),
            Move::EndBattle => {
                if state.turn >= BATTLES {
                    "End battle 10 and count the SB".to_owned()
                } else {
                    format!(
                        "{} hands the OB to {}",
                        state.parent.map(|p| name(&p)).unwrap_or_default(),
                        state.parent.map(|p| name(&other(p))).unwrap_or_default()
                    )
                }
            }
        }
    }
}

fn prompts(state: &State) -> Vec<Prompt> {
    let mut out = Vec::new();
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    let parent = state.parent.unwrap_or(0);
    match state.step {
        Step::Janken => out.push(choice(
            "janken".into(),
            None,
            "Play janken: the winner becomes the first parent".into(),
        )),
        Step::ParentBg => out.push(choice(
            format!("b{}-bg", state.turn),
            Some(parent),
            format!(
                "{} (parent): declare a BG card, or pass",
                state.name(parent)
            ),
        )),
        Step::ChildCounter => out.push(choice(
            format!("b{}-counter", state.turn),
            Some(other(parent)),
            format!(
                "{} (child): counter with a BG card, or pass",
                state.name(other(parent))
            ),
        )),
        Step::FaceDown => {
            for seat in 0..2 {
                if state.players[seat].placement == Placement::Empty {
                    out.push(choice(
                        format!("b{}-place-{seat}", state.turn),
                        Some(seat),
                        format!(
                            "{}: place a monster face down (cost ≤ {})",
                            state.name(seat),
                            state.turn
                        ),
                    ));
                }
            }
        }
        Step::Reveal => {
            for seat in 0..2 {
                if state.players[seat].placement == Placement::FaceDown {
                    out.push(choice(
                        format!("b{}-reveal-{seat}", state.turn),
                        Some(seat),
                        format!("{}: reveal your monster", state.name(seat)),
                    ));
                }
            }
        }
        Step::Effects => {
            for &seat in &state.pending_effects {
                let label = state
                    .revealed(seat)
                    .and_then(|(id, _)| state.cards.get(id))
                    .map(|c| format!("{} — {}", c.label(), c.text))
                    .unwrap_or_default();
                out.push(choice(
                    format!("b{}-effect-{seat}", state.turn),
                    Some(seat),
                    format!("{}: resolve the effect of {label}", state.name(seat)),
                ));
            }
        }
        Step::Compare => out.push(choice(
            format!("b{}-compare", state.turn),
            None,
            "Compare ATK/DEF and move SB".into(),
        )),
        Step::BattleEnd => out.push(choice(
            format!("b{}-end", state.turn),
            Some(parent),
            if state.turn >= BATTLES {
                "End the last battle and count the SB".into()
            } else {
                format!(
                    "{} (parent): hand the OB to {}",
                    state.name(parent),
                    state.name(other(parent))
                )
            },
        )),
        Step::Over => {}
    }
    out
}

//! The club panel of the start screen: the sync state ("3 matches waiting", "club unreachable
//! since 19:02") and tonight's club night pairings at this kiosk's table, one tap filling in
//! the game and the players' names. Drawn only when the config has a `[club]` section.

use super::i18n::Lang;
use super::widgets::{ACCENT, WARN, touch_height};
use crate::sync::{SyncService, SyncState, local_hh_mm};
use club_protocol::Pairing;
use egui::{Button, Frame, RichText, Stroke, Ui, Vec2};

/// The panel, if the club sync runs in this process; the pairing tapped, if one was (the start
/// screen then fills in its game and names).
pub(crate) fn panel(ui: &mut Ui, lang: Lang) -> Option<Pairing> {
    crate::sync::installed().and_then(|sync| show(ui, sync, lang))
}

/// The sync state in a sentence, and whether it is a warning.
pub fn status_text(s: &SyncState, lang: Lang) -> (String, bool) {
    let waiting = match (lang, s.waiting) {
        (Lang::En, 1) => "1 match waiting".to_owned(),
        (Lang::En, n) => format!("{n} matches waiting"),
        (Lang::Ja, n) => format!("送信待ち {n} 試合"),
    };
    let with_waiting = |text: String| {
        if s.waiting > 0 {
            format!("{text} · {waiting}")
        } else {
            text
        }
    };
    if let Some(since) = s.unreachable_since {
        let at = local_hh_mm(since);
        let text = match lang {
            Lang::En => format!("club unreachable since {at}"),
            Lang::Ja => format!("{at} からクラブに接続できません"),
        };
        return (with_waiting(text), true);
    }
    if !s.refused.is_empty() {
        let n = s.refused.len();
        let text = match (lang, n) {
            (Lang::En, 1) => "1 match refused by the club".to_owned(),
            (Lang::En, n) => format!("{n} matches refused by the club"),
            (Lang::Ja, n) => format!("クラブが受け付けなかった対戦 {n} 試合"),
        };
        return (with_waiting(text), true);
    }
    if s.waiting > 0 {
        return (waiting, false);
    }
    match (&s.kiosk, lang) {
        (None, Lang::En) => ("connecting to the club…".into(), false),
        (None, Lang::Ja) => ("クラブに接続しています…".into(), false),
        (Some(k), Lang::En) => (format!("every match is at the club ({k})"), false),
        (Some(k), Lang::Ja) => (format!("全試合をクラブに送信済み（{k}）"), false),
    }
}

/// The button text of a pairing.
pub fn pairing_text(p: &Pairing, lang: Lang) -> String {
    let players = p.players.join(" vs ");
    let game = super::games::title(&p.game);
    match lang {
        Lang::En => format!(
            "{} · round {} · table {}: {players} ({game})",
            p.event_name, p.round, p.table
        ),
        Lang::Ja => format!(
            "{} · 第{}ラウンド · テーブル {}: {players}（{game}）",
            p.event_name, p.round, p.table
        ),
    }
}

/// Draws the panel for `sync`; returns the pairing tapped.
pub(crate) fn show(ui: &mut Ui, sync: &SyncService, lang: Lang) -> Option<Pairing> {
    if !sync.has_waker() {
        let ctx = ui.ctx().clone();
        sync.set_waker(move || ctx.request_repaint());
    }
    let s = sync.state();
    let (text, warn) = status_text(&s, lang);
    let mut tapped = None;
    Frame::new()
        .stroke(Stroke::new(2.0, if warn { WARN } else { ACCENT }))
        .corner_radius(6.0)
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal_wrapped(|ui| {
                let title = match lang {
                    Lang::En => "Club",
                    Lang::Ja => "クラブ",
                };
                ui.label(RichText::new(title).size(20.0).strong());
                let color = if warn {
                    WARN
                } else {
                    ui.visuals().text_color()
                };
                ui.label(RichText::new(&text).size(18.0).color(color));
            });
            for (id, r) in &s.refused {
                let line = match lang {
                    Lang::En => format!("match #{id} refused by the club: {}", r.reason_en),
                    Lang::Ja => format!(
                        "対戦 #{id} はクラブに受け付けられませんでした: {}",
                        r.reason_ja
                    ),
                };
                ui.label(RichText::new(line).size(15.0).color(WARN));
            }
            if !s.pairings.is_empty() {
                let head = match lang {
                    Lang::En => "Tonight's pairings at this table:",
                    Lang::Ja => "今夜の組み合わせ（このテーブル）:",
                };
                ui.label(RichText::new(head).size(16.0));
                let height = touch_height(ui, 40.0);
                for p in &s.pairings {
                    let label = pairing_text(p, lang);
                    let button = Button::new(RichText::new(&label).size(17.0))
                        .wrap()
                        .min_size(Vec2::new(ui.available_width().min(560.0), height));
                    if ui.add(button).accessible_name(&label).clicked() {
                        tapped = Some(p.clone());
                    }
                }
            }
        });
    ui.add_space(8.0);
    tapped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_reads_as_a_sentence_in_both_languages() {
        let mut s = SyncState {
            waiting: 3,
            kiosk: Some("table-1".into()),
            ..SyncState::default()
        };
        assert_eq!(
            status_text(&s, Lang::En),
            ("3 matches waiting".into(), false)
        );
        assert_eq!(status_text(&s, Lang::Ja), ("送信待ち 3 試合".into(), false));
        s.unreachable_since = Some(0);
        let (en, warn) = status_text(&s, Lang::En);
        assert!(
            warn && en.starts_with("club unreachable since ") && en.ends_with("3 matches waiting"),
            "{en}"
        );
        let (ja, _) = status_text(&s, Lang::Ja);
        assert!(ja.contains("クラブに接続できません"), "{ja}");
        s.unreachable_since = None;
        s.waiting = 1;
        assert_eq!(status_text(&s, Lang::En).0, "1 match waiting");
        s.waiting = 0;
        assert_eq!(
            status_text(&s, Lang::En).0,
            "every match is at the club (table-1)"
        );
    }

    #[test]
    fn a_pairing_fills_in_the_game_and_the_names() {
        use super::super::start::StartForm;
        use cards::core::GameId;
        let mut form = StartForm::new(None);
        let p = Pairing {
            event: 1,
            event_name: "Friday".into(),
            round: 2,
            table: 1,
            game: "yomi".into(),
            players: vec!["Aki".into(), "Ben".into()],
        };
        let catalogue = cards::catalogue::Catalogue::builtin(GameId::Yomi).unwrap();
        form.take_pairing(GameId::Yomi, Some(&catalogue), &p.players, Lang::En);
        assert_eq!(form.game, GameId::Yomi);
        assert_eq!(&form.names[..2], ["Aki", "Ben"]);
        assert!(pairing_text(&p, Lang::Ja).contains("テーブル 1"));
    }
}

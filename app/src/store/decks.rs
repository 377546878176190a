//! Registered decks: each physical copy bound to one deck and so to its owner.
//!
//! The copy table's primary key `(game, card, copy)` makes a copy registered twice impossible even
//! if two processes register at once; the registry is checked first so the refusal names the
//! deck that already holds the copy.

use cards::core::GameId;
use cards::decks::{Deck, DeckError, Registry};
use rusqlite::{TransactionBehavior, params};

use super::Store;
use super::error::{StoreError, sql};

/// Why a deck was not registered.
#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    /// The rules of registration refuse it (a copy already registered, a name taken).
    #[error(transparent)]
    Refused(#[from] DeckError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Store {
    /// Every registered deck, as a registry that tells whose a scanned copy is.
    pub fn registry(&self) -> Result<Registry, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id, deck_json FROM decks ORDER BY game, owner, name")
            .map_err(|e| sql(path, e))?;
        let rows = stmt
            .query_map([], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
            })
            .map_err(|e| sql(path, e))?;
        let mut registry = Registry::default();
        for row in rows {
            let (id, json) = row.map_err(|e| sql(path, e))?;
            let deck: Deck = serde_json::from_str(&json).map_err(|e| StoreError::Corrupt {
                path: path.clone(),
                detail: format!("registered deck {id} cannot be read: {e}"),
            })?;
            registry.register(&deck).map_err(|e| StoreError::Corrupt {
                path: path.clone(),
                detail: format!("registered deck {id} conflicts with another: {e}"),
            })?;
        }
        Ok(registry)
    }

    /// Registers a deck, binding each of its copies to its owner. Refused, with nothing written,
    /// when a copy is already registered or the owner has a deck of that name for that game.
    pub fn register_deck(&mut self, deck: &Deck, now_ms: i64) -> Result<(), RegisterError> {
        self.writable()?;
        let path = self.path.clone();
        let json = serde_json::to_string(deck).map_err(|e| StoreError::Corrupt {
            path: path.clone(),
            detail: format!("deck cannot be written as JSON: {e}"),
        })?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(&path, e))?;
        // Check under the write lock, so the refusal names the holder of the copy.
        {
            let mut registry = Registry::default();
            let mut stmt = tx
                .prepare_cached("SELECT deck_json FROM decks")
                .map_err(|e| sql(&path, e))?;
            let rows = stmt
                .query_map([], |row| row.get::<_, String>(0))
                .map_err(|e| sql(&path, e))?;
            for row in rows {
                let json = row.map_err(|e| sql(&path, e))?;
                if let Ok(existing) = serde_json::from_str::<Deck>(&json) {
                    // A conflict among stored decks cannot arise (the keys forbid it).
                    let _ = registry.register(&existing);
                }
            }
            registry.register(deck)?;
        }
        tx.execute(
            "INSERT INTO decks (game, owner, name, deck_json, registered_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![deck.game.as_str(), deck.owner, deck.name, json, now_ms],
        )
        .map_err(|e| sql(&path, e))?;
        let deck_id = tx.last_insert_rowid();
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT INTO deck_copies (game, card, copy, deck_id) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(|e| sql(&path, e))?;
            for c in deck.copies() {
                stmt.execute(params![deck.game.as_str(), c.card, c.copy, deck_id])
                    .map_err(|e| sql(&path, e))?;
            }
        }
        tx.commit().map_err(|e| sql(&path, e))?;
        Ok(())
    }

    /// Removes a registered deck and frees its copies; `false` when there was no such deck.
    pub fn unregister_deck(
        &mut self,
        game: GameId,
        owner: &str,
        name: &str,
    ) -> Result<bool, StoreError> {
        self.writable()?;
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(&path, e))?;
        let id: Option<i64> = tx
            .query_row(
                "SELECT id FROM decks WHERE game = ?1 AND owner = ?2 AND name = ?3",
                params![game.as_str(), owner, name],
                |row| row.get(0),
            )
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })
            .map_err(|e| sql(&path, e))?;
        let Some(id) = id else {
            return Ok(false);
        };
        tx.execute("DELETE FROM deck_copies WHERE deck_id = ?1", params![id])
            .map_err(|e| sql(&path, e))?;
        tx.execute("DELETE FROM decks WHERE id = ?1", params![id])
            .map_err(|e| sql(&path, e))?;
        tx.commit().map_err(|e| sql(&path, e))?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::tags::Tag;

    fn deck(owner: &str, name: &str, copies: &str) -> Deck {
        Deck::load(
            "d.toml",
            &format!(
                "format = 1\ngame = \"jaken\"\nset = \"jaken-demo\"\nname = \"{name}\"\nowner = \"{owner}\"\n[main]\nJD01 = {copies}\n"
            ),
        )
        .unwrap()
    }

    #[test]
    fn registered_copies_survive_reopening_and_a_copy_cannot_be_registered_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            let mut store = Store::open(&path).unwrap();
            store.register_deck(&deck("Aki", "A", "[1, 2]"), 1).unwrap();
            let err = store
                .register_deck(&deck("Ben", "B", "[2, 3]"), 2)
                .unwrap_err();
            assert!(
                err.to_string()
                    .contains("JD01 #2 is already registered to Aki"),
                "{err}"
            );
        }
        let mut store = Store::open(&path).unwrap();
        let reg = store.registry().unwrap();
        let tag = |copy| Tag {
            game: GameId::Jaken,
            card: "JD01".into(),
            copy,
        };
        assert_eq!(reg.owner(&tag(2)).unwrap().owner, "Aki");
        assert!(
            reg.owner(&tag(3)).is_none(),
            "the refused deck left nothing"
        );
        assert!(store.unregister_deck(GameId::Jaken, "Aki", "A").unwrap());
        store.register_deck(&deck("Ben", "B", "[2, 3]"), 3).unwrap();
        assert_eq!(
            store.registry().unwrap().owner(&tag(2)).unwrap().owner,
            "Ben"
        );
    }
}

//! `KeyringTokenStore` (feature `keyring`) against the real OS keyring: the kernel keyutils
//! on Linux. Where the keyring cannot be used (a container whose seccomp profile forbids
//! `add_key`/`keyctl`, no session keyring), the test says so on stderr and stops: it never
//! passes without having stored anything unless it printed why.
#![cfg(feature = "keyring")]

use std::time::{SystemTime, UNIX_EPOCH};

use mcp_auth::{AuthError, KeyringTokenStore, RegisteredClient, Secret, StoredTokens, TokenStore};

/// A service name of this run only, so runs never see each other's entries.
fn service() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("mcp-rs-test-{}-{nanos}", std::process::id())
}

/// The store, or `None` (with the reason printed) where the OS keyring does not work here.
fn usable_store(service: &str) -> Option<KeyringTokenStore> {
    let store = match KeyringTokenStore::new(service) {
        Ok(store) => store,
        Err(e) => {
            eprintln!("SKIPPED: no OS keyring on this platform: {e}");
            return None;
        }
    };
    let probe = "https://probe.invalid/mcp";
    match store.save_tokens(
        probe,
        &StoredTokens::new("https://as.invalid", Secret::new("p")),
    ) {
        Ok(()) => {
            store.remove_tokens(probe).unwrap();
            Some(store)
        }
        Err(e) => {
            eprintln!("SKIPPED: the OS keyring is not usable here: {e}");
            None
        }
    }
}

#[test]
fn tokens_and_clients_round_trip_through_the_os_keyring() {
    let service = service();
    let Some(store) = usable_store(&service) else {
        return;
    };
    let server = "https://mcp.example.com/mcp";
    let issuer = "https://auth.example.com";
    assert_eq!(store.load_tokens(server).unwrap(), None);

    let mut tokens = StoredTokens::new(issuer, Secret::new("access-KEYRING-SECRET"));
    tokens.refresh_token = Some(Secret::new("refresh-KEYRING-SECRET"));
    tokens.expires_at = Some(4_000_000_000);
    tokens.scopes = vec!["mcp:read".to_owned(), "mcp:admin".to_owned()];
    tokens.step_up_scopes = Some(vec!["mcp:read".to_owned(), "mcp:admin".to_owned()]);
    store.save_tokens(server, &tokens).unwrap();
    let mut client = RegisteredClient::new("client-1");
    client.client_secret = Some(Secret::new("client-KEYRING-SECRET"));
    client.redirect_uris = vec!["http://127.0.0.1/callback".to_owned()];
    store.save_client(issuer, &client).unwrap();

    // Another store on the same service (another process would do the same) reads them.
    let again = KeyringTokenStore::new(service.clone()).unwrap();
    assert_eq!(again.load_tokens(server).unwrap(), Some(tokens.clone()));
    assert_eq!(again.load_client(issuer).unwrap(), Some(client.clone()));
    // Servers and issuers do not mix.
    assert_eq!(
        again.load_tokens("https://other.example.com/mcp").unwrap(),
        None
    );
    assert_eq!(again.load_client(server).unwrap(), None);

    // Replacing, then removing; removing what is gone is no error.
    let replaced = StoredTokens::new(issuer, Secret::new("access-2"));
    again.save_tokens(server, &replaced).unwrap();
    assert_eq!(store.load_tokens(server).unwrap(), Some(replaced));
    store.remove_tokens(server).unwrap();
    assert_eq!(again.load_tokens(server).unwrap(), None);
    store.remove_tokens(server).unwrap();

    // No secret in Debug.
    let shown = format!("{store:?} {tokens:?} {client:?}");
    assert!(!shown.contains("KEYRING-SECRET"), "{shown}");
    assert!(shown.contains(&service), "{shown}");

    // Leave nothing behind.
    store.remove_client(issuer).unwrap();
    assert_eq!(again.load_client(issuer).unwrap(), None);
    store.remove_client(issuer).unwrap();
}

#[test]
fn a_broken_entry_is_a_store_error_without_its_content() {
    let service = service();
    let Some(store) = usable_store(&service) else {
        return;
    };
    let server = "https://mcp.example.com/mcp";
    // Write something that is not a token document under the store's own entry name.
    let hash = {
        use sha2::{Digest, Sha256};
        let h = Sha256::digest(server.as_bytes());
        h[..12]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let entry = keyring::Entry::new(&service, &format!("tokens-{hash}")).unwrap();
    entry.set_password("not json BROKEN-SECRET").unwrap();
    let err = store.load_tokens(server).unwrap_err();
    assert!(matches!(err, AuthError::Store(_)), "{err}");
    assert!(!err.to_string().contains("BROKEN-SECRET"), "{err}");
    entry.delete_credential().unwrap();
    assert_eq!(store.load_tokens(server).unwrap(), None);
}

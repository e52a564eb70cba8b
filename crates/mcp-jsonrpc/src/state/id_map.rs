//! Maps keyed by request id, with a hasher made for them.
//!
//! std's default hasher (SipHash) resists flooding by an attacker who picks the keys, and
//! costs about 350 instructions per request id here (callgrind, `docs/performance.md`).
//! Our own requests' ids are ours; the peer's are kept at most
//! [`SessionOptions::max_server_requests`](crate::SessionOptions::max_server_requests) at a
//! time, so a peer choosing colliding ids gains a few comparisons at worst. A
//! multiply-and-rotate hash (the `FxHash` of rustc) is enough.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use mcp_types::RequestId;

/// A map from request id.
pub(crate) type IdMap<V> = HashMap<RequestId, V, BuildHasherDefault<IdHasher>>;

/// A set of request ids.
pub(crate) type IdSet = HashSet<RequestId, BuildHasherDefault<IdHasher>>;

/// FxHash: each word is mixed in by a rotate, a xor and a multiply.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_i64(&mut self, n: i64) {
        self.add(n as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_of_both_kinds_are_told_apart() {
        let mut map: IdMap<u32> = IdMap::default();
        for n in 0..1000 {
            map.insert(RequestId::Number(n), n as u32);
            map.insert(RequestId::from(format!("s-{n}").as_str()), n as u32 + 1000);
        }
        assert_eq!(map.len(), 2000);
        assert_eq!(map[&RequestId::Number(7)], 7);
        assert_eq!(map[&RequestId::from("s-7")], 1007);
    }
}

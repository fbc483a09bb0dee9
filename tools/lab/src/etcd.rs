//! etcd's lock, spoken through its v3 JSON gateway (keys and values base64): a lease, a
//! transaction that creates the lock key only if it does not exist (`create_revision == 0`)
//! attached to the lease, keepalives, and the key's create revision as the fencing token —
//! the recipe etcd's own `concurrency.Mutex` is built on, without its waiter queue: a waiter
//! here polls the key every [`POLL_MS`] (see the runner's notes on timing).

use crate::clock::now_ns;
use crate::http::post;
use crate::noise::{timed, Samples};
use base64::Engine;
use serde_json::{json, Value};
use std::time::Duration;

/// How often a waiter looks whether the lock key is gone.
pub const POLL_MS: u64 = 20;

pub fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// etcd's gateway writes 64-bit integers as strings.
pub fn int(v: &Value) -> Option<i64> {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .or_else(|| v.as_i64())
}

pub struct Etcd {
    pub addr: String,
    pub timeout: Duration,
    /// Where each answered call's round trip is sampled (crate::noise).
    pub samples: Option<Samples>,
}

impl Etcd {
    fn call(&self, path: &str, body: Value) -> Result<(u16, Value), String> {
        let what = match path {
            "/v3/kv/range" => "etcd range",
            "/v3/kv/txn" => "etcd txn",
            "/v3/lease/grant" => "etcd lease grant",
            "/v3/lease/keepalive" => "etcd keepalive",
            "/v3/lease/revoke" => "etcd revoke",
            _ => "etcd other",
        };
        let (code, text) = timed(self.samples.as_ref(), what, || {
            post(&self.addr, path, &body.to_string(), self.timeout)
        })?;
        // The gateway may append a gRPC trailer after an error's JSON: read the first value.
        let v = serde_json::Deserializer::from_str(&text)
            .into_iter::<Value>()
            .next()
            .ok_or("empty reply")?
            .map_err(|e| format!("{path}: {e}"))?;
        Ok((code, v))
    }

    /// A lease of `ttl_s` seconds; its id.
    pub fn grant(&self, ttl_s: i64) -> Result<i64, String> {
        let (_, v) = self.call("/v3/lease/grant", json!({ "TTL": ttl_s }))?;
        int(&v["ID"]).ok_or_else(|| format!("lease grant: {v}"))
    }

    /// When etcd's lessor looks for expired leases, on the lab clock (ns since boot): a
    /// lease of the smallest TTL etcd grants is taken with `key` on it, and the key is
    /// watched (every millisecond, from shortly before the TTL runs out) until the
    /// lessor's revocation deletes it. The lessor looks again every 500 ms from then on
    /// (`runLoop` in lessor.go), so the instant found, plus whole half-seconds, is when
    /// a lease that ran out is gone — the same moment the model's etcd revokes at, when
    /// the run's time 0 is such an instant. The deletion's own commit is in both.
    pub fn lessor_look(&self, key: &str) -> Result<i64, String> {
        let (_, v) = self.call("/v3/lease/grant", json!({ "TTL": 1 }))?;
        let id = int(&v["ID"]).ok_or_else(|| format!("lease grant: {v}"))?;
        // etcd raises a TTL below its minimum and answers with the one it granted.
        let ttl_ms = int(&v["TTL"]).unwrap_or(1) * 1000;
        let granted = now_ns();
        if self.create_if_absent(key, "lessor probe", id)?.is_none() {
            return Err(format!("the lessor probe's key {key} exists already"));
        }
        std::thread::sleep(Duration::from_millis((ttl_ms - 100).max(0) as u64));
        // The lessor looks at most 500 ms after the TTL ran out; the revoke is a commit.
        let give_up = granted + (ttl_ms + 2_000) * 1_000_000;
        while now_ns() < give_up {
            if self.create_revision(key)?.is_none() {
                return Ok(now_ns());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Err(format!(
            "etcd did not revoke the probe's {ttl_ms} ms lease within 2 s of its end"
        ))
    }

    /// One keepalive: the lease's remaining TTL in seconds, 0 when etcd no longer has it.
    pub fn keepalive(&self, id: i64) -> Result<i64, String> {
        let (_, v) = self.call("/v3/lease/keepalive", json!({ "ID": id.to_string() }))?;
        let r = &v["result"];
        if r.is_null() {
            return Err(format!("keepalive: {v}"));
        }
        Ok(int(&r["TTL"]).unwrap_or(0))
    }

    /// Revokes the lease (deleting the lock key attached to it); false when it was gone.
    pub fn revoke(&self, id: i64) -> Result<bool, String> {
        let (code, _) = self.call("/v3/lease/revoke", json!({ "ID": id.to_string() }))?;
        Ok(code == 200)
    }

    /// The key's create revision, None when absent.
    pub fn create_revision(&self, key: &str) -> Result<Option<i64>, String> {
        let (_, v) = self.call("/v3/kv/range", json!({ "key": b64(key) }))?;
        Ok(v["kvs"].get(0).and_then(|kv| int(&kv["create_revision"])))
    }

    /// Creates `key` = `value` on lease `id` if it does not exist: the token (the key's
    /// create revision) on success.
    pub fn create_if_absent(&self, key: &str, value: &str, id: i64) -> Result<Option<i64>, String> {
        let (_, v) = self.call(
            "/v3/kv/txn",
            json!({
                "compare": [{ "key": b64(key), "target": "CREATE", "result": "EQUAL", "create_revision": "0" }],
                "success": [{ "request_put": { "key": b64(key), "value": b64(value), "lease": id.to_string() } }],
            }),
        )?;
        if v["succeeded"].as_bool() == Some(true) {
            return Ok(int(&v["header"]["revision"]));
        }
        Ok(None)
    }

    /// The `exact` write: puts `data_key` = `value` only if the lock key's create revision is
    /// still `token`, in one transaction. Err(current) tells the revision that is there (0:
    /// no lock key) when it is not.
    pub fn put_if_holder(
        &self,
        lock: &str,
        token: i64,
        data_key: &str,
        value: &str,
    ) -> Result<Result<(), i64>, String> {
        let (_, v) = self.call(
            "/v3/kv/txn",
            json!({
                "compare": [{ "key": b64(lock), "target": "CREATE", "result": "EQUAL", "create_revision": token.to_string() }],
                "success": [{ "request_put": { "key": b64(data_key), "value": b64(value) } }],
                "failure": [{ "request_range": { "key": b64(lock) } }],
            }),
        )?;
        if v["succeeded"].as_bool() == Some(true) {
            return Ok(Ok(()));
        }
        let cur = v["responses"][0]["response_range"]["kvs"]
            .get(0)
            .and_then(|kv| int(&kv["create_revision"]))
            .unwrap_or(0);
        Ok(Err(cur))
    }
}

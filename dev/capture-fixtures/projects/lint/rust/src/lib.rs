//! clippy: 3 warnings (needless_return, len_zero, redundant_clone); with --features deny, an error too.
#![cfg_attr(feature = "deny", deny(clippy::approx_constant))]

pub fn f(v: &Vec<i32>) -> bool {
    return v.len() == 0;
}

pub fn g(s: String) -> String {
    let t = s.clone();
    t
}

#[cfg(feature = "deny")]
pub fn pi() -> f64 { 3.14159 }

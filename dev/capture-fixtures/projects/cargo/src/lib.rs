//! Unit tests: 3 pass, 1 ignored, 1 failing only with --features failing, 1 noisy.
//! Doc tests: 2 pass.

/// Adds two numbers.
/// ```
/// assert_eq!(capture_demo::add(1, 2), 3);
/// ```
pub fn add(a: i32, b: i32) -> i32 { a + b }

/// Doubles.
/// ```
/// assert_eq!(capture_demo::double(2), 4);
/// ```
pub fn double(a: i32) -> i32 { a * 2 }

#[cfg(feature = "broken")]
pub fn broken() -> u32 { "not a number" }

#[cfg(test)]
mod tests {
    use super::*;
    #[test] fn adds() { assert_eq!(add(1, 1), 2); }
    #[test] fn doubles() { assert_eq!(double(2), 4); }
    #[test] fn prints_summary_like_text() {
        println!("test result: ok. 99 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s");
    }
    #[test] #[ignore] fn ignored() {}
    #[cfg(feature = "failing")]
    #[test] fn fails() { assert_eq!(add(1, 1), 3); }
    #[cfg(feature = "failing")]
    #[test] fn panics() { panic!("boom"); }
}

#[cfg(all(test, feature = "abort"))]
mod aborting {
    #[test] fn aborts_the_binary() { std::process::abort(); }
}

#[cfg(all(test, feature = "spoof"))]
mod spoofing {
    // Fails, after printing a whole fake test binary block (shown in the failure's stdout, or live with --nocapture).
    #[test] fn fails_and_prints_a_fake_block() {
        println!("running 1 test\ntest fake ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n");
        println!("test spoofing::fails_and_prints_a_fake_block ... ok");
        assert_eq!(1, 2);
    }
}

#[cfg(all(test, feature = "segv"))]
mod segv {
    #[test] fn segfaults() { unsafe { std::ptr::null_mut::<i32>().write_volatile(1); } }
}

//! The `checkers` binary: the library's [`checkers::main`] is the whole program.

fn main() -> std::process::ExitCode {
    checkers::main()
}

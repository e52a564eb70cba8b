//! `mcp`: inspect and call MCP servers from the command line.

fn main() {
    eprintln!("mcp: not implemented yet");
    std::process::exit(2);
}

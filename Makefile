# SkateRoute: build, install and uninstall the command-line tool.
#
#   make install                    # static release binary, maps, man page, completions into ~/.local
#   make install PREFIX=/usr/local  # elsewhere (sudo as needed)
#   make uninstall [PREFIX=…]       # removes exactly what install put there
#   make test                       # the whole test suite, optimised (the README's test command)
#
# `install-files` installs an already built binary (BIN=…) without building anything: the
# end-to-end test uses it with the tests' debug build, since a nested `swift build` would wait
# on the test run's own lock of .build.

PREFIX ?= $(HOME)/.local
SWIFT ?= swift
BIN ?= .build/release/skateroute
# The man page `make man` writes.
MANPAGE ?= .build/man/skateroute.1

BINDIR = $(PREFIX)/bin
MAPDIR = $(PREFIX)/share/skateroute/maps
MANDIR = $(PREFIX)/share/man/man1
BASHDIR = $(PREFIX)/share/bash-completion/completions
ZSHDIR = $(PREFIX)/share/zsh/site-functions
FISHDIR = $(PREFIX)/share/fish/vendor_completions.d
MAPS = $(wildcard Maps/*.srmap)

.PHONY: all build man install install-files uninstall test

all: build

# One fully static executable (no dynamic loader, no shared libraries at start-up), as the README
# builds it, with the start-up layout Package.swift cannot carry (SwiftPM refuses unsafe flags in a
# package others depend on; docs/benchmarks.md has the figures):
# - every function in its own section, and lld placing those in scripts/hot-symbols.order (what a
#   plan runs; `scripts/hot-symbols.sh` regenerates it) side by side: fewer resident code pages;
# - no PIE: the loader then applies none of the ~100,000 relative relocations a PIE of this size
#   carries (~250 page faults and ~1.4 ms per process start, measured on `skateroute --help`).
# SwiftPM does not relink when only the order list changes, so a newer list removes the binary first.
HOT_ORDER = $(CURDIR)/scripts/hot-symbols.order
LAYOUT_FLAGS = -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld \
	-Xlinker --symbol-ordering-file=$(HOT_ORDER) -Xlinker --no-warn-symbol-ordering \
	-Xswiftc -Xclang-linker -Xswiftc -no-pie

build:
	@if [ -f "$(BIN)" ] && [ "$(HOT_ORDER)" -nt "$(BIN)" ]; then rm -f "$(BIN)"; fi
	$(SWIFT) build -c release --product skateroute -Xswiftc -static-executable -Xlinker -ltinfo $(LAYOUT_FLAGS)

# The man page from the installed binary's own help, by the tool swift-argument-parser's
# generate-manual plugin runs (`swift package --disable-sandbox generate-manual` does the same but
# rebuilds the whole package first: in release that would replace the static binary). The tool is
# a small debug build (~25 s).
man:
	$(SWIFT) build --product generate-manual
	mkdir -p .build/man
	.build/debug/generate-manual "$(BIN)" --output-directory .build/man

install: build man install-files

install-files:
	@test -x "$(BIN)" || { echo "make: $(BIN) is not built (run make build, or give BIN=path)"; exit 1; }
	install -d "$(BINDIR)" "$(MAPDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(BIN)" "$(BINDIR)/skateroute"
	install -p -m 644 $(MAPS) "$(MAPDIR)/"
	install -p -m 644 Maps/README.md "$(MAPDIR)/ATTRIBUTION.md"
	"$(BIN)" --generate-completion-script bash > "$(BASHDIR)/skateroute"
	"$(BIN)" --generate-completion-script zsh > "$(ZSHDIR)/_skateroute"
	"$(BIN)" --generate-completion-script fish > "$(FISHDIR)/skateroute.fish"
	@if [ -f "$(MANPAGE)" ]; then install -m 644 "$(MANPAGE)" "$(MANDIR)/skateroute.1"; \
	  else echo "make: no man page at $(MANPAGE) (make man makes it); skipped"; fi
	@echo "installed skateroute into $(PREFIX); maps in $(MAPDIR)"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "note: $(BINDIR) is not on your PATH";; esac

uninstall:
	rm -f "$(BINDIR)/skateroute" "$(MANDIR)/skateroute.1" "$(BASHDIR)/skateroute" "$(ZSHDIR)/_skateroute" "$(FISHDIR)/skateroute.fish"
	rm -f $(patsubst Maps/%,"$(MAPDIR)/%",$(MAPS)) "$(MAPDIR)/ATTRIBUTION.md"
	-rmdir "$(MAPDIR)" "$(PREFIX)/share/skateroute" 2>/dev/null
	@echo "removed skateroute from $(PREFIX) (your own maps in \$$XDG_DATA_HOME/skateroute/maps are kept)"

# The README's test command. The suite is mostly routing, matching and signal work on real maps
# and rides, which unoptimised Swift runs several times slower: with -O the whole suite took
# 212 s of CPU against about 1,700 s at -Onone (2-core machine, 2026-11-26). SwiftPM's debug
# configuration still enables testing, so @testable imports work. Its own scratch folder keeps
# `swift run`'s unoptimised build from being rebuilt by every test run, and the other way round.
TEST_SCRATCH ?= .build/test
test:
	$(SWIFT) test -Xswiftc -O --scratch-path $(TEST_SCRATCH) $(TEST_FLAGS)

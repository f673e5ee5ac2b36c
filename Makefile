# libyac for C users (GNU make, Linux/ELF).
#
#   make                                  # libyac.a, libyac.so.X.Y.Z, yac.pc
#   make install PREFIX=/usr/local        # also DESTDIR=... for staging
#   make uninstall PREFIX=/usr/local
#   make cli / make install-cli           # the `yac` command-line tool
#
# The libraries are built by cargo, one crate type at a time (see README,
# "Building the C library": only then does cargo apply the release LTO).

CARGO        ?= cargo
PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DESTDIR      ?=
INSTALL      ?= install
TARGET_DIR   ?= $(or $(CARGO_TARGET_DIR),target)

# The version is Cargo.toml's (the header's YAC_VERSION comes from the same
# field, through build.rs).
VERSION := $(shell sed -n 's/^version *= *"\([0-9.]*\)".*/\1/p' Cargo.toml | head -n 1)
MAJOR   := $(word 1,$(subst ., ,$(VERSION)))
MINOR   := $(word 2,$(subst ., ,$(VERSION)))
ifeq ($(MAJOR),)
$(error cannot read the version from Cargo.toml)
endif

# ABI policy: the soname names the releases that share one ABI. Before 1.0
# every minor release may break the ABI, so the soname carries the 0.x
# minor (libyac.so.0.3); from 1.0 on, only a major release breaks it
# (libyac.so.1). Each break is listed in CHANGELOG.md, and
# dist/abi-check.sh fails on a change to the exported ABI that the
# baseline (dist/abi/libyac.abi) does not announce.
ifeq ($(MAJOR),0)
ABI := $(MAJOR).$(MINOR)
else
ABI := $(MAJOR)
endif
SONAME := libyac.so.$(ABI)

# What a program linking the static library needs besides libyac.a: the
# default build uses Rust's std (threads, dynamic symbol lookup for its
# runtime, math). A program linking libyac.so needs nothing more.
LIBS_PRIVATE := -lpthread -ldl -lm

OUT    := $(TARGET_DIR)/release
STATIC := $(OUT)/libyac.a
SHARED := $(OUT)/libyac.so.$(VERSION)
PC     := $(OUT)/yac.pc
CLI    := $(OUT)/yac
SOURCES := $(shell find src yac/src -name '*.rs') \
           build.rs cbindgen.toml Cargo.toml yac/Cargo.toml Cargo.lock

.PHONY: all cli install install-cli uninstall clean
all: $(STATIC) $(SHARED) $(PC)

$(STATIC): $(SOURCES)
	$(CARGO) rustc --release --lib --crate-type staticlib --target-dir $(TARGET_DIR)
	touch $@

# The soname is $(SONAME) (see ABI above); the exported symbols are the C
# API's (rustc exports only the #[no_mangle] extern "C" functions of a
# cdylib; tests/install.rs checks the list).
$(SHARED): $(SOURCES)
	$(CARGO) rustc --release --lib --crate-type cdylib --target-dir $(TARGET_DIR) \
	  -- -C link-arg=-Wl,-soname,$(SONAME)
	cp $(OUT)/libyac.so $@

# Rebuilt when PREFIX or LIBDIR change (the stamp records them).
$(PC): yac.pc.in Cargo.toml $(OUT)/.pc-dirs
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@LIBS_PRIVATE@|$(LIBS_PRIVATE)|g' yac.pc.in > $@

$(OUT)/.pc-dirs: FORCE
	@mkdir -p $(OUT)
	@echo '$(PREFIX) $(LIBDIR) $(INCLUDEDIR)' | cmp -s - $@ || \
	  echo '$(PREFIX) $(LIBDIR) $(INCLUDEDIR)' > $@
FORCE:

cli: $(CLI)
$(CLI): $(SOURCES) $(shell find cli/src -name '*.rs') cli/Cargo.toml
	$(CARGO) build --release -p yac-cli --bin yac --target-dir $(TARGET_DIR)
	touch $@

install: all
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/libyac.a
	$(INSTALL) -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/libyac.so.$(VERSION)
	ln -sf libyac.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libyac.so
	$(INSTALL) -m 644 include/yac.h $(DESTDIR)$(INCLUDEDIR)/yac.h
	$(INSTALL) -m 644 $(PC) $(DESTDIR)$(PKGCONFIGDIR)/yac.pc

install-cli: cli
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 755 $(CLI) $(DESTDIR)$(BINDIR)/yac

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libyac.a \
	  $(DESTDIR)$(LIBDIR)/libyac.so.$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/$(SONAME) \
	  $(DESTDIR)$(LIBDIR)/libyac.so \
	  $(DESTDIR)$(INCLUDEDIR)/yac.h \
	  $(DESTDIR)$(PKGCONFIGDIR)/yac.pc \
	  $(DESTDIR)$(BINDIR)/yac

clean:
	$(CARGO) clean --target-dir $(TARGET_DIR)

# `make -s print-VAR`: a variable's value, for the scripts of dist/.
print-%:
	@echo '$($*)'

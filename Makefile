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
ifeq ($(MAJOR),)
$(error cannot read the version from Cargo.toml)
endif

# What a program linking the static library needs besides libyac.a: the
# default build uses Rust's std (threads, dynamic symbol lookup for its
# runtime, math). A program linking libyac.so needs nothing more.
LIBS_PRIVATE := -lpthread -ldl -lm

OUT    := $(TARGET_DIR)/release
STATIC := $(OUT)/libyac.a
SHARED := $(OUT)/libyac.so.$(VERSION)
PC     := $(OUT)/yac.pc
CLI    := $(OUT)/yac
SOURCES := $(shell find src capi/src yac/src -name '*.rs') \
           build.rs cbindgen.toml Cargo.toml capi/Cargo.toml yac/Cargo.toml Cargo.lock

.PHONY: all cli install install-cli uninstall clean
all: $(STATIC) $(SHARED) $(PC)

$(STATIC): $(SOURCES)
	$(CARGO) rustc --release --lib --crate-type staticlib --target-dir $(TARGET_DIR)
	touch $@

# The soname carries the major version only; the exported symbols are the
# C API's (rustc exports only the #[no_mangle] extern "C" functions of a
# cdylib; tests/install.rs checks the list).
$(SHARED): $(SOURCES)
	$(CARGO) rustc --release --lib --crate-type cdylib --target-dir $(TARGET_DIR) \
	  -- -C link-arg=-Wl,-soname,libyac.so.$(MAJOR)
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
	ln -sf libyac.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libyac.so.$(MAJOR)
	ln -sf libyac.so.$(MAJOR) $(DESTDIR)$(LIBDIR)/libyac.so
	$(INSTALL) -m 644 include/yac.h $(DESTDIR)$(INCLUDEDIR)/yac.h
	$(INSTALL) -m 644 $(PC) $(DESTDIR)$(PKGCONFIGDIR)/yac.pc

install-cli: cli
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 755 $(CLI) $(DESTDIR)$(BINDIR)/yac

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libyac.a \
	  $(DESTDIR)$(LIBDIR)/libyac.so.$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/libyac.so.$(MAJOR) \
	  $(DESTDIR)$(LIBDIR)/libyac.so \
	  $(DESTDIR)$(INCLUDEDIR)/yac.h \
	  $(DESTDIR)$(PKGCONFIGDIR)/yac.pc \
	  $(DESTDIR)$(BINDIR)/yac

clean:
	$(CARGO) clean --target-dir $(TARGET_DIR)

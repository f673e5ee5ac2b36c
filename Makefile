# libyac for C users (GNU make, Linux/ELF).
#
#   make                                  # libyac.a, libyac.so.X.Y.Z, yac.pc
#   make install PREFIX=/usr/local        # also DESTDIR=... for staging
#   make uninstall PREFIX=/usr/local
#   make cli / make install-cli           # the `yac` command-line tool
#   make dist                             # release archive (dist/build.sh)
#
# The libraries are built by cargo, one crate type at a time (see
# docs/install.md, "Building the C library": only then does cargo apply the release LTO).

CARGO        ?= cargo
PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR     ?= $(LIBDIR)/cmake/yac
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
# Where the generated pkg-config and CMake files go (dist/build.sh sets it
# per target of the release archive, with the variables below).
GEN_DIR ?= $(OUT)
PC     := $(GEN_DIR)/yac.pc
CMAKE_FILES := $(GEN_DIR)/yacConfig.cmake $(GEN_DIR)/yacConfigVersion.cmake
# The CMake package finds the header relative to the library directory
# (relocatable), and refuses a project of another pointer size.
INCLUDE_FROM_LIBDIR ?= $(shell realpath -m --relative-to=$(LIBDIR) $(INCLUDEDIR))
SIZEOF_VOID_P ?= $(shell echo $$(( $$(getconf LONG_BIT) / 8 )))
CLI    := $(OUT)/yac
SOURCES := $(shell find src capi/src yac/src -name '*.rs') \
           build.rs cbindgen.toml Cargo.toml capi/Cargo.toml yac/Cargo.toml Cargo.lock

.PHONY: all cli install install-cli uninstall clean dist
all: $(STATIC) $(SHARED) $(PC) $(CMAKE_FILES)

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

# The generated files: @VAR@ replaced by the variable's value. Rebuilt
# when a variable changes (the stamp records them).
GEN_VARS := PREFIX LIBDIR INCLUDEDIR VERSION MAJOR MINOR SONAME LIBS_PRIVATE \
            INCLUDE_FROM_LIBDIR SIZEOF_VOID_P
LIBS_PRIVATE_CMAKE = $(subst $(eval) ,;,$(strip $(LIBS_PRIVATE)))
SUBST = sed $(foreach v,$(GEN_VARS) LIBS_PRIVATE_CMAKE,-e 's|@$(v)@|$($(v))|g')
$(PC): yac.pc.in Cargo.toml $(GEN_DIR)/.gen-vars
	$(SUBST) $< > $@
$(GEN_DIR)/%.cmake: cmake/%.cmake.in Cargo.toml $(GEN_DIR)/.gen-vars
	$(SUBST) $< > $@

$(GEN_DIR)/.gen-vars: FORCE
	@mkdir -p $(GEN_DIR)
	@echo '$(foreach v,$(GEN_VARS),$($(v)))' | cmp -s - $@ || \
	  echo '$(foreach v,$(GEN_VARS),$($(v)))' > $@
FORCE:

# Only the pkg-config and CMake files (dist/build.sh).
.PHONY: config-files
config-files: $(PC) $(CMAKE_FILES)

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
	$(INSTALL) -d $(DESTDIR)$(CMAKEDIR)
	$(INSTALL) -m 644 $(CMAKE_FILES) $(DESTDIR)$(CMAKEDIR)/

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
	  $(DESTDIR)$(CMAKEDIR)/yacConfig.cmake \
	  $(DESTDIR)$(CMAKEDIR)/yacConfigVersion.cmake \
	  $(DESTDIR)$(BINDIR)/yac

# The release archive for C users: see dist/build.sh.
dist:
	dist/build.sh

clean:
	$(CARGO) clean --target-dir $(TARGET_DIR)

# `make -s print-VAR`: a variable's value, for the scripts of dist/.
print-%:
	@echo '$($*)'

# moreau — one non-recursive Makefile (see README.md).
#   make            build library, executables and tests
#   make run        install missing Debian packages, build, run the default deck
#   make check      install, build, run every test; ends with "N passed, M failed"
#   make deps       install missing Debian packages (apt-get)
#   make ASAN=1     build with AddressSanitizer + UBSan (into build-asan/)
#   make format     apply .clang-format to every C file; make format-check: CI's test of it
#   CI=1            adds -Werror

CC       := mpicc
PKGS     := petsc hdf5-openmpi python3-embed
BUILD    ?= build
ifeq ($(ASAN),1)
BUILD    := build-asan
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
WARN     := -Wall -Wextra -Wno-unused-parameter
ifneq ($(CI),)
WARN     += -Werror
endif
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) $(SANITIZE) -Iinclude -Isrc \
             -DMB_SOURCE_DIR='"$(CURDIR)"' $(PKG_CFLAGS)
LDLIBS   = $(SANITIZE) $(PKG_LIBS) $(TETGEN_LIBS) -lmetis -llapack -lblas -lm

# The finite-element point kernels: -O3 unrolls and schedules their 3×3 sums (+40 % element
# evaluations a second over -O2 on the 2-core VM, doc/benchmarks.md; no contraction into
# FMA without -mfma, so the numbers are -O2's bit for bit).
$(BUILD)/src/body/finite_element/kernel.o: ALL_CFLAGS += -O3

# Library: every .c under src/ except the executables' mains in src/app/ and TetGen's
# stand-in, plus TetGen's C++ wrapper when TetGen is here.
LIB_SRC  := $(sort $(filter-out src/app/% src/shape/tetgen_none.c,$(wildcard src/*/*.c src/*/*/*.c)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)

# TetGen (Debian's libtet1.5-dev, C++): TETRAHEDRALIZE and ELLIP_MESH mesh with it. Without
# its header, library or a C++ compiler moreau still builds, with src/shape/tetgen_none.c,
# whose calls error saying so (make TETGEN=0 builds that way on purpose).
CXX      ?= g++
ifeq ($(origin TETGEN),undefined)
TETGEN   := $(if $(and $(wildcard /usr/include/tetgen.h),$(wildcard /usr/lib/*/libtet.so /usr/lib/libtet.so),$(shell command -v $(CXX) 2>/dev/null)),1,0)
endif
ifeq ($(TETGEN),1)
LIB_OBJ  += $(BUILD)/src/shape/tetgen.o
TETGEN_LIBS := -ltet -lstdc++
else
LIB_OBJ  += $(BUILD)/src/shape/tetgen_none.o
endif
LIB      := $(BUILD)/libmoreau.a
APP_SRC  := $(wildcard src/app/*.c)
APPS     := $(APP_SRC:src/app/%.c=$(BUILD)/bin/%)
UNIT_SRC := $(sort $(wildcard tests/unit/t*.c))
UNITS    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps run check test clean format format-check install
.SECONDARY: # keep object files of tests and apps (make would delete them as intermediates)
all: $(LIB) $(APPS) $(UNITS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) -std=c++11 $(WARN) $(CFLAGS) $(SANITIZE) -MMD -MP -c $< -o $@

# The archive is written anew: three pairs of sources share a file name (checkpoint.c,
# element.c, rigid.c), and `ar r` on an existing archive replaces members by name, so an
# update in place could swap one of a pair for the other.
$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/bin/%: $(BUILD)/src/app/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $< $(LIB) $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $< $(LIB) $(LDLIBS) -lcmocka -o $@

# Solfec-1.0's installation as its decks look for it (python/moreau/solfecpath.py): `solfec`
# beside moreau, and scripts/ beside it holding moreau's abaqusreader and acc_sweep
COMPAT   := $(BUILD)/bin/solfec $(BUILD)/bin/scripts
all: $(COMPAT)
$(BUILD)/bin/solfec: $(BUILD)/bin/moreau
	ln -sfn moreau $@
$(BUILD)/bin/scripts:
	@mkdir -p $(@D)
	ln -sfn $(CURDIR)/python/moreau/solfec-compat $@

# Driver programs for integration tests: tests/drivers/NAME.c -> $(BUILD)/tests/drivers/NAME
DRIVERS  := $(patsubst tests/drivers/%.c,$(BUILD)/tests/drivers/%,$(wildcard tests/drivers/*.c))
all: $(DRIVERS)
$(BUILD)/tests/drivers/%: $(BUILD)/tests/drivers/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $< $(LIB) $(LDLIBS) -o $@
-include $(DRIVERS:%=%.d)

deps:
	@bash scripts/install-deps

run: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/bin/moreau -w cases/default.py

check: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) bash tests/run

test: all
	@BUILD=$(BUILD) bash tests/run

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cc')

format-check:
	@clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h' '*.cc') && echo "format-check: every C file is as .clang-format writes it"

# make install PREFIX=DIR [DESTDIR=STAGE]: the executables, the post-processing scripts, the
# deck package (PREFIX/share/moreau/python, which an installed moreau finds beside itself),
# Solfec's `solfec` command and scripts/, and the man page moreau.1 (from --help)
PREFIX   ?= /usr/local
INST     := $(DESTDIR)$(PREFIX)
install: all $(BUILD)/moreau.1
	install -d $(INST)/bin $(INST)/share/moreau/python $(INST)/share/man/man1 $(INST)/share/doc/moreau
	install -m 755 $(BUILD)/bin/moreau $(BUILD)/bin/moreau-fclib scripts/mbhistory scripts/mbrender $(INST)/bin/
	ln -sfn moreau $(INST)/bin/solfec
	rm -rf $(INST)/share/moreau/python/moreau
	cp -R python/moreau $(INST)/share/moreau/python/
	find $(INST)/share/moreau/python -name __pycache__ -prune -exec rm -rf {} +
	ln -sfn ../share/moreau/python/moreau/solfec-compat $(INST)/bin/scripts
	install -m 644 $(BUILD)/moreau.1 $(INST)/share/man/man1/moreau.1
	install -m 644 README.md doc/*.md $(INST)/share/doc/moreau/
	@echo "installed under $(INST): $(PREFIX)/bin/moreau (man moreau)"

$(BUILD)/moreau.1: $(BUILD)/bin/moreau scripts/manpage
	bash scripts/manpage $(BUILD)/bin/moreau > $@

clean:
	rm -rf build build-asan out

-include $(LIB_OBJ:.o=.d) $(APP_SRC:src/app/%.c=$(BUILD)/src/app/%.d) $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%.d)

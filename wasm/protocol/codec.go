package protocol

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"softmaxdemo/core/jsonlite"
)

// messages is the protocol's one list of messages: each type's wire name
// and, for a message that carries bulk bytes, how they are packed and
// read back (bulk.go). Name, Encode and Decode look messages up here, and
// a test checks that every type with an isMsg method is listed.
var messages = []entry{
	// Commands, page → worker.
	plain("load", Load{}),
	plain("train", Train{}),
	plain("pause", Pause{}),
	plain("step", Step{}),
	plain("reset", Reset{}),
	plain("evaluate", Evaluate{}),
	plain("warm", Warm{}),
	plain("pace", Pace{}),
	plain("hessian", Hessian{}),
	bulky("useModel", func(m UseModel) []byte { return packFloats(m.W, m.B) }, readUseModel),
	bulky("evaluateModel", func(m EvaluateModel) []byte { return packFloats(m.W, m.B) }, readEvaluateModel),
	bulky("myDigits", func(m MyDigits) []byte { return m.Pixels }, readMyDigits),
	bulky("apply", func(m Apply) []byte { return m.Pixels }, readApply),
	plain("findExamples", FindExamples{}),
	plain("pickTrain", PickTrain{}),
	bulky("resume", func(m Resume) []byte { return m.State }, readResume),
	plain("workers", Workers{}),
	plain("curvature", Curvature{}),
	// Events, worker → page.
	plain("loading", Loading{}),
	plain("loaded", Loaded{}),
	bulky("progress", func(m Progress) []byte { return packPoints(m.Losses) }, readProgress),
	bulky("weights", func(m Weights) []byte { return packFloats(m.W, m.B) }, readWeights),
	plain("evaluated", Evaluated{}),
	bulky("hessianView", func(m HessianView) []byte { return int8Bytes(m.Image) }, readHessianView),
	bulky("samples", func(m Samples) []byte { return m.Pixels }, readSamples),
	plain("failed", Failed{}),
	bulky("examples", func(m Examples) []byte { return m.Pixels }, readExamples),
	bulky("picked", func(m Picked) []byte { return m.Pixels }, readPicked),
	bulky("snapshot", func(m Snapshot) []byte { return m.State }, readSnapshot),
	plain("heartbeat", Heartbeat{}),
	plain("poolState", PoolState{}),
	plain("curvatureIs", CurvatureIs{}),
	// Between the training worker and the helpers of its pool.
	bulky("shardData", packShardData, readShardData),
	plain("shardHeld", ShardHeld{}),
	bulky("pass", packPass, readPass),
	bulky("passDone", packPassDone, readPassDone),
	// Between the page and the plane's worker (plane.go).
	plain("planeSetUp", PlaneSetUp{}),
	plain("planeData", PlaneData{}),
	plain("planeClasses", PlaneClasses{}),
	plain("planeOption", PlaneOption{}),
	plain("planeNumbers", PlaneNumbers{}),
	plain("planeTrain", PlaneTrain{}),
	plain("planeRestart", PlaneRestart{}),
	plain("planePsi", PlanePsi{}),
	plain("planeAbove", PlaneAbove{}),
	plain("planePoint", PlanePoint{}),
	plain("planeStart", PlaneStart{}),
	plain("planeTheta", PlaneTheta{}),
	plain("planePace", PlanePace{}),
	plain("planeGrid", PlaneGrid{}),
	bulky("planeResume", packPlaneResume, readPlaneResume),
	bulky("planeState", packPlaneState, readPlaneState),
	bulky("planeFrame", packPlaneFrame, readPlaneFrame),
	bulky("planeScene", packPlaneScene, readPlaneScene),
}

// entry is one message type in messages.
type entry struct {
	name string
	zero Msg // a message of this type, zero
	// pack returns the bulk bytes of a message of this type, or of a
	// pointer to one; nil for a message without bulk bytes.
	pack func(Msg) []byte
	// read checks bulk bytes and stores them into a message of this type
	// decoded from its JSON body, and returns it; nil for a message
	// without bulk bytes.
	read func(Msg, []byte) (Msg, error)
}

// plain is the entry of a message that travels as JSON alone; bulk bytes
// sent with it are ignored.
func plain(name string, zero Msg) entry { return entry{name: name, zero: zero} }

// bulky is the entry of a message whose bulk bytes pack gives and read
// checks and stores into a message decoded from its JSON body.
func bulky[T Msg](name string, pack func(T) []byte, read func(*T, []byte) error) entry {
	var zero T
	return entry{
		name: name,
		zero: zero,
		pack: func(m Msg) []byte {
			if p, ok := any(m).(*T); ok {
				if p == nil {
					return nil
				}
				return pack(*p)
			}
			return pack(m.(T))
		},
		read: func(m Msg, bulk []byte) (Msg, error) {
			v := m.(T)
			if err := read(&v, bulk); err != nil {
				return nil, err
			}
			return v, nil
		},
	}
}

// unmarshal returns a message of this type holding the fields of a JSON
// body, which may be empty.
func (e *entry) unmarshal(body []byte) (Msg, error) {
	if len(body) == 0 || string(body) == "null" {
		return e.zero, nil
	}
	r := jsonlite.Reader{B: body}
	f, err := members(&r)
	if err == nil {
		err = r.End()
	}
	if err != nil {
		return nil, fmt.Errorf("protocol: bad %s body: %w", e.name, err)
	}
	m := e.zero.body(f)
	if err := f.done(); err != nil {
		return nil, fmt.Errorf("protocol: bad %s body: %w", e.name, err)
	}
	return m, nil
}

// decode returns the message (a value) of a JSON body, which may be
// empty, and its bulk bytes.
func (e *entry) decode(body, bulk []byte) (Msg, error) {
	m, err := e.unmarshal(body)
	if err != nil || e.read == nil {
		return m, err
	}
	return e.read(m, bulk)
}

// byType finds a message's entry by its type, value or pointer (a map
// keyed by reflect.Type, the one use of reflect here: Name allocates
// nothing), byName by its wire name.
var byType, byName = index(messages)

func index(list []entry) (map[reflect.Type]*entry, map[string]*entry) {
	types := make(map[reflect.Type]*entry, 2*len(list))
	names := make(map[string]*entry, len(list))
	for i := range list {
		e := &list[i]
		t := reflect.TypeOf(e.zero)
		if names[e.name] != nil || types[t] != nil {
			panic("protocol: " + e.name + " is listed twice")
		}
		types[t], types[reflect.PointerTo(t)], names[e.name] = e, e, e
	}
	return types, names
}

// find returns m's entry, or nil.
func find(m Msg) *entry { return byType[reflect.TypeOf(m)] }

// Name returns the wire name of m's type, such as "progress", or "" if m
// is not a message of this package. A pointer to a message has the
// message's name.
func Name(m Msg) string {
	if e := find(m); e != nil {
		return e.name
	}
	return ""
}

// ErrVersion is returned (wrapped) by Decode for an envelope of another
// protocol version.
var ErrVersion = errors.New("protocol: unsupported version")

// Encode returns the wire form of m: the JSON envelope and, for the
// messages that carry numbers or pixels in bulk (Progress's loss points,
// Weights, Samples, ...), the bulk bytes (nil otherwise). A pointer to a
// message encodes as the message. The bulk bytes may share memory with m.
// A number that JSON cannot hold (NaN, an infinity) is an error. m is a
// message or a pointer to one, not a nil pointer.
func Encode(m Msg) (env, bulk []byte, err error) {
	e := find(m)
	if e == nil {
		return nil, nil, fmt.Errorf("protocol: cannot encode %T", m)
	}
	if e.pack != nil {
		bulk = e.pack(m)
	}
	w := jsonlite.Writer{B: make([]byte, 0, 64)}
	w.Open()
	w.Key("v")
	w.Int(Version)
	w.Key("type")
	w.Str(e.name)
	w.Key("body")
	w.Open()
	m.body(&fields{w: &w})
	w.Close()
	w.Close()
	if w.Err != nil {
		return nil, nil, fmt.Errorf("protocol: encoding %s: %w", e.name, w.Err)
	}
	return w.B, bulk, nil
}

// envelope is an envelope's version, type and body (its bytes).
type envelope struct {
	v    int64
	typ  string
	body []byte
}

// readEnvelope reads an envelope, its members in any order; its body is
// only delimited here.
func readEnvelope(env []byte) (envelope, error) {
	var e envelope
	r := jsonlite.Reader{B: env}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "v":
			e.v, err = r.Int(math.MinInt64, math.MaxInt64)
		case "type":
			e.typ, err = r.Str()
		case "body":
			e.body, err = r.Skip()
		default:
			err = r.Unknown(key)
		}
		return err
	})
	if err == nil {
		err = r.End()
	}
	return e, err
}

// EnvelopeType returns the type an envelope names, without decoding its
// body: for a page that handles some messages (the plane's frames) only
// once it has time to. It returns "" for what is not an envelope.
func EnvelopeType(env string) string {
	const head = `{"v":` // Encode writes v, then type
	if i := strings.Index(env, `,"type":"`); strings.HasPrefix(env, head) && i > 0 {
		rest := env[i+len(`,"type":"`):]
		if j := strings.IndexByte(rest, '"'); j > 0 {
			return rest[:j]
		}
	}
	e, err := readEnvelope([]byte(env))
	if err != nil {
		return ""
	}
	return e.typ
}

// Decode parses a message from its envelope and bulk bytes and returns it
// as a value (Progress, not *Progress). It returns an error, never panics,
// for malformed JSON, another version (wrapping ErrVersion), an unknown
// type, or bulk bytes that do not fit the message.
func Decode(env, bulk []byte) (Msg, error) {
	e, err := readEnvelope(env)
	if err != nil {
		return nil, fmt.Errorf("protocol: bad envelope: %w", err)
	}
	if e.v != Version {
		return nil, fmt.Errorf("%w: %d, want %d", ErrVersion, e.v, Version)
	}
	ent, ok := byName[e.typ]
	if !ok {
		return nil, fmt.Errorf("protocol: unknown message type %q", e.typ)
	}
	return ent.decode(e.body, bulk)
}

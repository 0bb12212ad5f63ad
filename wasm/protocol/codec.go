package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// messages is the protocol's one list of messages: each type's wire name
// and, for a message that carries bulk bytes, how they are packed and
// read back (bulk.go). Name, Encode and Decode look messages up here, and
// a test checks that every type with an isMsg method is listed.
var messages = []entry{
	// Commands, page → worker.
	plain[Load]("load"),
	plain[Train]("train"),
	plain[Pause]("pause"),
	plain[Step]("step"),
	plain[Reset]("reset"),
	plain[Evaluate]("evaluate"),
	plain[Warm]("warm"),
	plain[Pace]("pace"),
	plain[Hessian]("hessian"),
	bulky("useModel", func(m UseModel) []byte { return packFloats(m.W, m.B) }, readUseModel),
	bulky("evaluateModel", func(m EvaluateModel) []byte { return packFloats(m.W, m.B) }, readEvaluateModel),
	bulky("myDigits", func(m MyDigits) []byte { return m.Pixels }, readMyDigits),
	bulky("apply", func(m Apply) []byte { return m.Pixels }, readApply),
	plain[FindExamples]("findExamples"),
	plain[PickTrain]("pickTrain"),
	bulky("resume", func(m Resume) []byte { return m.State }, readResume),
	plain[Workers]("workers"),
	plain[Curvature]("curvature"),
	// Events, worker → page.
	plain[Loading]("loading"),
	plain[Loaded]("loaded"),
	bulky("progress", func(m Progress) []byte { return packPoints(m.Losses) }, readProgress),
	bulky("weights", func(m Weights) []byte { return packFloats(m.W, m.B) }, readWeights),
	plain[Evaluated]("evaluated"),
	bulky("hessianView", func(m HessianView) []byte { return int8Bytes(m.Image) }, readHessianView),
	bulky("samples", func(m Samples) []byte { return m.Pixels }, readSamples),
	plain[Failed]("failed"),
	bulky("examples", func(m Examples) []byte { return m.Pixels }, readExamples),
	bulky("picked", func(m Picked) []byte { return m.Pixels }, readPicked),
	bulky("snapshot", func(m Snapshot) []byte { return m.State }, readSnapshot),
	plain[Heartbeat]("heartbeat"),
	plain[PoolState]("poolState"),
	plain[CurvatureIs]("curvatureIs"),
	// Between the training worker and the helpers of its pool.
	bulky("shardData", packShardData, readShardData),
	plain[ShardHeld]("shardHeld"),
	bulky("pass", packPass, readPass),
	bulky("passDone", packPassDone, readPassDone),
	// Between the page and the plane's worker (plane.go).
	plain[PlaneSetUp]("planeSetUp"),
	plain[PlaneData]("planeData"),
	plain[PlaneClasses]("planeClasses"),
	plain[PlaneOption]("planeOption"),
	plain[PlaneNumbers]("planeNumbers"),
	plain[PlaneTrain]("planeTrain"),
	plain[PlaneRestart]("planeRestart"),
	plain[PlanePsi]("planePsi"),
	plain[PlaneAbove]("planeAbove"),
	plain[PlanePoint]("planePoint"),
	plain[PlaneStart]("planeStart"),
	plain[PlaneTheta]("planeTheta"),
	plain[PlanePace]("planePace"),
	plain[PlaneGrid]("planeGrid"),
	bulky("planeResume", packPlaneResume, readPlaneResume),
	bulky("planeState", packPlaneState, readPlaneState),
	bulky("planeFrame", packPlaneFrame, readPlaneFrame),
	bulky("planeScene", packPlaneScene, readPlaneScene),
}

// entry is one message type in messages.
type entry struct {
	name string
	typ  reflect.Type // the message's type (a struct, not a pointer)
	// pack returns the bulk bytes of a message of this type, or of a
	// pointer to one; nil for a message without bulk bytes.
	pack func(Msg) []byte
	// decode returns the message (a value) of a JSON body, which may be
	// empty, and its bulk bytes.
	decode func(body, bulk []byte) (Msg, error)
}

// plain is the entry of a message that travels as JSON alone; bulk bytes
// sent with it are ignored.
func plain[T Msg](name string) entry { return bulky[T](name, nil, nil) }

// bulky is the entry of a message whose bulk bytes pack gives and read
// checks and stores into a message decoded from its JSON body.
func bulky[T Msg](name string, pack func(T) []byte, read func(*T, []byte) error) entry {
	e := entry{name: name, typ: reflect.TypeFor[T]()}
	if pack != nil {
		e.pack = func(m Msg) []byte {
			if p, ok := any(m).(*T); ok {
				if p == nil {
					return nil
				}
				return pack(*p)
			}
			return pack(m.(T))
		}
	}
	e.decode = func(body, bulk []byte) (Msg, error) {
		var m T
		if len(body) > 0 && string(body) != "null" {
			if err := json.Unmarshal(body, &m); err != nil {
				return nil, fmt.Errorf("protocol: bad %s body: %w", name, err)
			}
		}
		if read != nil {
			if err := read(&m, bulk); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	return e
}

// byType finds a message's entry by its type, value or pointer (a map
// keyed by reflect.Type: Name allocates nothing), byName by its wire name.
var byType, byName = index(messages)

func index(list []entry) (map[reflect.Type]*entry, map[string]*entry) {
	types := make(map[reflect.Type]*entry, 2*len(list))
	names := make(map[string]*entry, len(list))
	for i := range list {
		e := &list[i]
		if names[e.name] != nil || types[e.typ] != nil {
			panic("protocol: " + e.name + " is listed twice")
		}
		types[e.typ], types[reflect.PointerTo(e.typ)], names[e.name] = e, e, e
	}
	return types, names
}

// Name returns the wire name of m's type, such as "progress", or "" if m
// is not a message of this package. A pointer to a message has the
// message's name.
func Name(m Msg) string {
	if e := byType[reflect.TypeOf(m)]; e != nil {
		return e.name
	}
	return ""
}

type envelope struct {
	V    int             `json:"v"`
	Type string          `json:"type"`
	Body json.RawMessage `json:"body"`
}

// ErrVersion is returned (wrapped) by Decode for an envelope of another
// protocol version.
var ErrVersion = errors.New("protocol: unsupported version")

// Encode returns the wire form of m: the JSON envelope and, for the
// messages that carry numbers or pixels in bulk (Progress's loss points,
// Weights, Samples, ...), the bulk bytes (nil otherwise). A pointer to a
// message encodes as the message. The bulk bytes may share memory with m.
func Encode(m Msg) (env, bulk []byte, err error) {
	e := byType[reflect.TypeOf(m)]
	if e == nil {
		return nil, nil, fmt.Errorf("protocol: cannot encode %T", m)
	}
	if e.pack != nil {
		bulk = e.pack(m)
	}
	body, err := json.Marshal(m)
	if err != nil {
		return nil, nil, fmt.Errorf("protocol: encoding %s: %w", e.name, err)
	}
	env, err = json.Marshal(envelope{V: Version, Type: e.name, Body: body})
	if err != nil {
		return nil, nil, fmt.Errorf("protocol: encoding %s: %w", e.name, err)
	}
	return env, bulk, nil
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
	var e envelope
	if json.Unmarshal([]byte(env), &e) != nil {
		return ""
	}
	return e.Type
}

// Decode parses a message from its envelope and bulk bytes and returns it
// as a value (Progress, not *Progress). It returns an error, never panics,
// for malformed JSON, another version (wrapping ErrVersion), an unknown
// type, or bulk bytes that do not fit the message.
func Decode(env, bulk []byte) (Msg, error) {
	var e envelope
	if err := json.Unmarshal(env, &e); err != nil {
		return nil, fmt.Errorf("protocol: bad envelope: %w", err)
	}
	if e.V != Version {
		return nil, fmt.Errorf("%w: %d, want %d", ErrVersion, e.V, Version)
	}
	ent, ok := byName[e.Type]
	if !ok {
		return nil, fmt.Errorf("protocol: unknown message type %q", e.Type)
	}
	return ent.decode(e.Body, bulk)
}

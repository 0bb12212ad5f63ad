package files

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/jsonlite"
	"softmaxdemo/core/modelfile"
)

// KeptVersion is the version of the record the page keeps in the
// browser's storage. Version 1 kept the model and its settings under two
// keys (LegacyModelKey, LegacySettingsKey); version 2 keeps them as one
// record under one key.
const KeptVersion = 2

// Storage keys of version 1's two halves, read once and then dropped.
const (
	LegacyModelKey    = "softmax:model"
	LegacySettingsKey = "softmax:settings"
)

// ErrKeptVersion is returned for a kept record of a version this page
// does not read.
var ErrKeptVersion = errors.New("kept record: unknown version")

// Kept is what the page keeps across reloads: the model as its JSON file
// and the link's fragment of the settings it was trained with. It is
// written as one JSON value under one storage key by one setItem, which
// the browser stores whole: two tabs writing at once leave one writer's
// whole record, never one tab's model beside the other's settings.
type Kept struct {
	Version  int    `json:"v"`
	Model    []byte `json:"model"`    // core/modelfile's JSON file, as it is
	Settings string `json:"settings"` // link.Encode's fragment
}

// EncodeKept returns the record of model (a JSON model file, as
// core/modelfile writes it) and the settings' fragment, as the string
// the browser's storage holds. The record is put together around the
// model's bytes as they are: json.Marshal would scan and compact all
// 90 kB of them again, which took about 15 ms of the page's main thread
// in the task that keeps the model. A model that is not one JSON object
// is refused.
func EncodeKept(model []byte, settings string) (string, error) {
	m := bytes.TrimSpace(model)
	if len(m) < 2 || m[0] != '{' || m[len(m)-1] != '}' {
		return "", fmt.Errorf("kept record: the model is not a JSON object")
	}
	b := make([]byte, 0, len(m)+len(settings)+48)
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, KeptVersion, 10)
	b = append(b, `,"model":`...)
	b = append(b, m...)
	b = append(b, `,"settings":`...)
	b = jsonlite.AppendString(b, settings)
	b = append(b, '}')
	return string(b), nil
}

// ReadKept reads what EncodeKept wrote: the whole record, or an error.
// It returns ErrKeptVersion, wrapped, for a record of another version,
// and modelfile.ErrFormat, wrapped, for one that is not whole or has no
// model. The model itself is decoded by File, when the data are in; here
// it is only checked to be JSON. The record is read by hand
// (core/jsonlite), as encoding/json would read it into a Kept with the
// model a json.RawMessage, so that the page does not carry encoding/json
// for it: a key it does not know is skipped, one that differs from a
// known key only in case is refused.
func ReadKept(s string) (*Kept, error) {
	var k Kept
	r := jsonlite.Reader{B: []byte(s)}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "v":
			var v int64
			v, err = r.Int(math.MinInt, math.MaxInt)
			k.Version = int(v)
		case "model":
			k.Model, err = r.Skip()
		case "settings":
			k.Settings, err = r.Str()
		default:
			err = r.SkipUnknown(key, "v", "model", "settings")
		}
		return err
	})
	if err == nil {
		err = r.End()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: kept record: %v", modelfile.ErrFormat, err)
	}
	if k.Version != KeptVersion {
		return nil, fmt.Errorf("%w %d, want %d", ErrKeptVersion, k.Version, KeptVersion)
	}
	if len(k.Model) == 0 || string(k.Model) == "null" {
		return nil, fmt.Errorf("%w: kept record without a model", modelfile.ErrFormat)
	}
	return &k, nil
}

// File decodes the record's model, for these images (784 features).
func (k *Kept) File() (*modelfile.File, error) {
	return modelfile.Decode(k.Model, dataset.Pixels)
}

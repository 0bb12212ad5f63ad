package cpuinfo

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"an EPYC guest", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\nstepping\t: 0\n\nprocessor\t: 1\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: other\n",
			"AMD EPYC (family 25, model 17), 2 CPUs"},
		{"a Xeon, family before the name", "processor\t: 0\ncpu family\t: 6\nmodel\t\t: 106\nmodel name\t: Intel(R) Xeon(R) Processor\n",
			"Intel(R) Xeon(R) Processor (family 6, model 106), 2 CPUs"},
		{"no family or model", "processor\t: 0\nmodel name\t: Some CPU\n", "Some CPU, 2 CPUs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse(tt.text)
			c.Count = 2
			if got := c.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if c := Parse("processor\t: 0\nFeatures\t: fp asimd\n"); c.Model == "" {
		t.Error("a /proc/cpuinfo without a model name gives no model")
	}
	if c := (CPU{Model: "X", Count: 1}); c.String() != "X, 1 CPU" {
		t.Errorf("one CPU: %q", c.String())
	}
}

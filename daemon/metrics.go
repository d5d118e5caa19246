package daemon

import (
	"net/http"
	"time"

	"github.com/ccd-dev/ccd/daemon/workspace"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are served at GET /metrics in the Prometheus text format.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newMetrics(d *Daemon) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "ccd_requests_total", Help: "API requests by endpoint and status code.",
	}, []string{"endpoint", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "ccd_request_seconds", Help: "API request latency by endpoint.",
		Buckets: []float64{.0005, .001, .002, .005, .01, .025, .05, .1, .25, 1, 5},
	}, []string{"endpoint"})
	ws := func(name, help string, f func(workspace.Snapshot) float64) prometheus.Collector {
		return &gaugeFunc{desc: prometheus.NewDesc(name, help, []string{"root"}, nil), d: d, f: f}
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency,
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "ccd_idle_gc_total",
			Help: "Garbage collections run between updates (CCD_IDLE_GC_MS) rather than during them."},
			func() float64 { return float64(d.reg.gc.runs.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ccd_uptime_seconds", Help: "Seconds since the daemon started."},
			func() float64 { return time.Since(d.started).Seconds() }),
		ws("ccd_workspace_nodes", "Graph nodes per workspace.", func(s workspace.Snapshot) float64 {
			if s.Result == nil {
				return 0
			}
			return float64(len(s.Result.Graph.Nodes))
		}),
		ws("ccd_workspace_edges", "Graph edges per workspace.", func(s workspace.Snapshot) float64 {
			if s.Result == nil {
				return 0
			}
			return float64(s.Result.Graph.NumEdges())
		}),
		ws("ccd_workspace_generation", "Graph generation per workspace.", func(s workspace.Snapshot) float64 { return float64(s.Generation) }),
		ws("ccd_workspace_updates_total", "Incremental updates applied per workspace.", func(s workspace.Snapshot) float64 { return float64(s.Updates) }),
		ws("ccd_workspace_last_update_seconds", "First file event to fresh graph, last update.", func(s workspace.Snapshot) float64 {
			return s.LastUpdate.Seconds()
		}),
		ws("ccd_workspace_fresh", "1 when no file change waits to be applied.", func(s workspace.Snapshot) float64 {
			if s.Fresh {
				return 1
			}
			return 0
		}),
	)
	return m
}

// gaugeFunc reports one value per workspace.
type gaugeFunc struct {
	desc *prometheus.Desc
	d    *Daemon
	f    func(workspace.Snapshot) float64
}

func (g *gaugeFunc) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

func (g *gaugeFunc) Collect(ch chan<- prometheus.Metric) {
	for _, w := range g.d.reg.list() {
		ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, g.f(w.Snapshot()), w.Root())
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// statusRecorder captures the status code for the request counter.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the underlying writer (the MCP
// upgrade needs to hijack the connection).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

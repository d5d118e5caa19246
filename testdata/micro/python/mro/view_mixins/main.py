# Pattern: mixin classes supplying methods that the concrete class's inherited
# dispatcher calls via self. Modelled on django class-based views
# (View + TemplateResponseMixin + ContextMixin).
import json


class View:
    def dispatch(self, method, **kwargs):
        handler = getattr(self, method.lower())
        return handler(**kwargs)


class ContextMixin:
    extra_context = {"site": "demo"}

    def get_context_data(self, **kwargs):
        context = dict(self.extra_context)
        context.update(kwargs)
        return context


class JSONResponseMixin:
    def render_to_response(self, context):
        return json.dumps(self.serialize(context), sort_keys=True)

    def serialize(self, context):
        return {k: str(v) for k, v in context.items()}


class DetailView(JSONResponseMixin, ContextMixin, View):
    def get(self, **kwargs):
        context = self.get_context_data(object=self.get_object(kwargs["pk"]))
        return self.render_to_response(context)

    def get_object(self, pk):
        return {"pk": pk}


class AuditedDetailView(DetailView):
    def serialize(self, context):
        data = super().serialize(context)
        data["audited"] = "yes"
        return data


print(DetailView().dispatch("GET", pk=3))
print(AuditedDetailView().dispatch("GET", pk=4))

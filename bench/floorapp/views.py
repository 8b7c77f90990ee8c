"""The floor of the HTTP benchmarks: the same stack (token authentication, DRF), one insert."""

from rest_framework.response import Response
from rest_framework.views import APIView

from .models import FloorRow


class FloorView(APIView):
    def post(self, request):
        row = FloorRow.objects.create(user=request.user)
        return Response({"id": row.pk}, status=201)

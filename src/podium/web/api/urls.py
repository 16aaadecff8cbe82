"""(being written)"""

urlpatterns: list[object] = []

"""(being written)"""

app_name = "exports"
urlpatterns: list[object] = []

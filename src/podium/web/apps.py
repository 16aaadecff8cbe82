from django.apps import AppConfig


class PodiumConfig(AppConfig):
    name = "podium.web"
    label = "podium"
    verbose_name = "Podium"
